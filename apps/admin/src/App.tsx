import { Admin, CustomRoutes } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { apiUrl } from './config';
import { Dashboard } from './Dashboard';
import { i18nProvider } from './i18nProvider';

const dataProvider = simpleRestProvider(`${apiUrl}/admin`);

/** The back office lives under /admin with real (history) URLs; /admin and /admin/dashboard both show the dashboard. */
export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/" element={<Navigate to="/admin" replace />} />
        <Route
          path="/admin/*"
          element={
            <Admin
              basename="/admin"
              dashboard={Dashboard}
              dataProvider={dataProvider}
              i18nProvider={i18nProvider}
              disableTelemetry
              title="Addis Natural Beauty"
            >
              <CustomRoutes>
                <Route path="/dashboard" element={<Dashboard />} />
              </CustomRoutes>
            </Admin>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
