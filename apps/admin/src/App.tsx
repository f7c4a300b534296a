import { Admin } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import { apiUrl } from './config';
import { Dashboard } from './Dashboard';
import { i18nProvider } from './i18nProvider';

const dataProvider = simpleRestProvider(`${apiUrl}/admin`);

export function App() {
  return <Admin basename="/admin" dashboard={Dashboard} dataProvider={dataProvider} i18nProvider={i18nProvider} />;
}
