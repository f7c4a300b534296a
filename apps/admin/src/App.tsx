import { lazy, Suspense } from 'react';
import { CustomRoutes, Resource } from 'react-admin';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { Admin, Dashboard, Layout, lazyDataProvider } from './AdminShell';
import { authProvider } from './authProvider';
import { i18nProvider } from './i18nProvider';
import { LoginPage } from './layout/LoginPage';
import { mails, outbox, sms } from './outbox';
import { darkTheme, lightTheme } from './theme';
import audit from './audit';
import contacts from './contacts';
import coupons from './coupons';
import orders from './orders';
import products from './products';
import promotions from './promotions';
import reviews from './reviews';
import users from './users';

/** Refusals are worded in the language chosen at the time of the call; loaded with the first call. */
const dataProvider = lazyDataProvider(() =>
  import('./dataProvider').then((m) =>
    m.createDataProvider((key, options) => i18nProvider.translate(key, options)),
  ),
);

/** Reached from an emailed link only: its own chunk, off the sign-in screen's. */
const ResetPasswordPage = lazy(() =>
  import('./layout/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);

const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));

/** The back office lives under /admin with real (history) URLs; /admin and /admin/dashboard both show the dashboard. */
export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/" element={<Navigate to="/admin" replace />} />
        <Route
          path="/admin/reset-password"
          element={
            <Suspense fallback={null}>
              <ResetPasswordPage />
            </Suspense>
          }
        />
        <Route
          path="/admin/*"
          element={
            <Admin
              basename="/admin"
              dashboard={Dashboard}
              dataProvider={dataProvider}
              authProvider={authProvider}
              i18nProvider={i18nProvider}
              loginPage={LoginPage}
              layout={Layout}
              lightTheme={lightTheme}
              darkTheme={darkTheme}
              requireAuth
              disableTelemetry
              title="Addis Natural Beauty"
            >
              <Resource name="products" options={{ label: 'shop.admin.menu.products' }} {...products} />
              <Resource name="orders" options={{ label: 'shop.admin.menu.orders' }} {...orders} />
              <Resource name="promotions" options={{ label: 'shop.admin.menu.promotions' }} {...promotions} />
              <Resource name="users" options={{ label: 'shop.admin.menu.users' }} {...users} />
              <Resource name="contacts" options={{ label: 'shop.admin.menu.contacts' }} {...contacts} />
              <Resource name="coupons" options={{ label: 'shop.admin.menu.coupons' }} {...coupons} />
              <Resource name="reviews" options={{ label: 'shop.admin.menu.reviews' }} {...reviews} />
              <Resource name="audit" options={{ label: 'shop.admin.menu.audit' }} {...audit} />
              <Resource name="notifications" options={{ label: 'shop.outbox.title' }} {...outbox} />
              <Resource name="mails" options={{ label: 'shop.outbox.mailsTitle' }} {...mails} />
              <Resource name="sms" options={{ label: 'shop.outbox.smsTitle' }} {...sms} />
              <CustomRoutes>
                <Route path="/dashboard" element={<Dashboard />} />
                <Route path="/settings" element={<SettingsPage />} />
              </CustomRoutes>
            </Admin>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
