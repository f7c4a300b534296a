import { CssBaseline } from '@mui/material';
import { lazy, Suspense, useRef, type ComponentProps, type ReactNode } from 'react';
import {
  AdminContext,
  CoreAdminUI,
  LoadingPage,
  localStorageStore,
  useNotificationContext,
  type AdminProps,
  type DataProvider,
} from 'react-admin';

/**
 * The back office's shell, light enough for the sign-in screen (docs/decisions/0083-lighter-back-office.md):
 * react-admin's <Admin> imports its default layout, login form (with its form library) and error pages
 * whether they are used or not. This <Admin> is the same composition (AdminContext + CoreAdminUI, the
 * baseline styles and notifications) with those pages loaded when first shown; the layout and the
 * dashboard below load after sign-in.
 */

const raPages = () => import('./layout/raPages');
const AccessDenied = lazy(() => raPages().then((m) => ({ default: m.AccessDenied })));
const AuthCallback = lazy(() => raPages().then((m) => ({ default: m.AuthCallback })));
const AuthenticationError = lazy(() => raPages().then((m) => ({ default: m.AuthenticationError })));
const NotFound = lazy(() => raPages().then((m) => ({ default: m.NotFound })));
const RaError = lazy(() => raPages().then((m) => ({ default: m.Error })));
const RaNotification = lazy(() => raPages().then((m) => ({ default: m.Notification })));

const store = localStorageStore();

/** What CoreAdminRoutes shows while it checks the session: also shown while the layout's chunk arrives. */
function FullPageLoading() {
  return (
    <div style={{ height: '100vh' }}>
      <LoadingPage />
    </div>
  );
}

/** react-admin's snackbar, fetched with the first notification (queued meanwhile by its context). */
function Notifications() {
  const { notifications } = useNotificationContext();
  const wanted = useRef(false);
  if (notifications.length) wanted.current = true;
  return wanted.current ? (
    <Suspense fallback={null}>
      <RaNotification />
    </Suspense>
  ) : null;
}

function ErrorPage(props: ComponentProps<typeof RaError>) {
  return (
    <Suspense fallback={null}>
      <RaError {...props} />
    </Suspense>
  );
}

/** Shown inside the layout, whose own Suspense waits for it. */
function CatchAll() {
  return <NotFound />;
}

function AuthCallbackPage() {
  return (
    <Suspense fallback={<FullPageLoading />}>
      <AuthCallback />
    </Suspense>
  );
}

export function Admin({
  authProvider,
  basename,
  darkTheme,
  dataProvider,
  defaultTheme,
  i18nProvider,
  lightTheme,
  queryClient,
  routerProvider,
  store: customStore,
  theme,
  notification: AdminNotification = Notifications,
  ...ui
}: AdminProps) {
  return (
    <AdminContext
      authProvider={authProvider}
      basename={basename}
      darkTheme={darkTheme}
      dataProvider={dataProvider}
      defaultTheme={defaultTheme}
      i18nProvider={i18nProvider}
      lightTheme={lightTheme}
      queryClient={queryClient}
      routerProvider={routerProvider}
      store={customStore ?? store}
      theme={theme}
    >
      <CssBaseline enableColorScheme>
        <CoreAdminUI
          accessDenied={AccessDenied}
          authCallbackPage={AuthCallbackPage}
          authenticationError={AuthenticationError}
          catchAll={CatchAll}
          error={ErrorPage}
          loading={LoadingPage}
          {...ui}
        />
        <AdminNotification />
      </CssBaseline>
    </AdminContext>
  );
}

const loadDashboard = () => import('./dashboard/Dashboard');

/** The dashboard, fetched with the layout when the dashboard is where the staff member lands. */
export const Dashboard = lazy(() => loadDashboard().then((m) => ({ default: m.Dashboard })));

const ShopLayout = lazy(() => {
  if (/^\/admin(\/dashboard)?\/?$/.test(window.location.pathname)) void loadDashboard();
  return import('./layout/Layout').then((m) => ({ default: m.Layout }));
});

/** The layout (app bar, side menu) loads after sign-in; until it is there, the same loading page as before. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<FullPageLoading />}>
      <ShopLayout>{children}</ShopLayout>
    </Suspense>
  );
}

/**
 * The data provider (react-admin's REST client and ours over it), fetched with the first call: the sign-in
 * screen makes none. Every method is the loaded provider's, called with the same arguments.
 */
export function lazyDataProvider(load: () => Promise<DataProvider>): DataProvider {
  let loaded: Promise<DataProvider> | undefined;
  return new Proxy({} as DataProvider, {
    get: (_, name) =>
      // not a thenable, and no AbortSignal support unless the provider says so (ours does not)
      typeof name === 'symbol' || name === 'then' || name === 'supportAbortSignal'
        ? undefined
        : (...args: unknown[]) =>
            (loaded ??= load()).then((provider) =>
              (provider[name] as (...a: unknown[]) => Promise<unknown>)(...args),
            ),
  });
}
