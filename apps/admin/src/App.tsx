import { Admin, CustomRoutes } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import { BrowserRouter, Route } from 'react-router-dom';
import { apiUrl } from './config';
import { Dashboard } from './Dashboard';
import { i18nProvider } from './i18nProvider';

const dataProvider = simpleRestProvider(`${apiUrl}/admin`);

/** The back office lives under /admin with real (history) URLs; /admin and /admin/dashboard both show the dashboard. */
export function App() {
  return (
    <BrowserRouter>
      <Admin
        basename="/admin"
        dashboard={Dashboard}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        disableTelemetry
      >
        <CustomRoutes>
          <Route path="/dashboard" element={<Dashboard />} />
        </CustomRoutes>
      </Admin>
    </BrowserRouter>
  );
}
