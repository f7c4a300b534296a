import { Box, styled } from '@mui/material';
import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import {
  AppBar,
  Loading,
  LoadingIndicator,
  LocalesMenuButton,
  Sidebar,
  SkipNavigationButton,
  TitlePortal,
  ToggleThemeButton,
} from 'react-admin';
import { ComponentTexts } from './ComponentTexts';
import { Menu } from './Menu';
import { ShopLogo } from './ShopLogo';

/** On a phone the language button keeps its icon only and the theme toggle goes, leaving the title room. */
function ShopToolbar() {
  return (
    <>
      <Box
        sx={{
          '& .MuiButton-root': { fontSize: { xs: 0, sm: '0.875rem' }, minWidth: { xs: 0, sm: 64 } },
          '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } },
        }}
      >
        <LocalesMenuButton />
      </Box>
      <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
        <ToggleThemeButton />
      </Box>
      <LoadingIndicator />
    </>
  );
}

/** The title may wrap onto two lines on a phone instead of being cut off. */
function ShopAppBar() {
  return (
    <AppBar color="secondary" toolbar={<ShopToolbar />}>
      <ShopLogo />
      <TitlePortal
        variant="h6"
        sx={{
          whiteSpace: { xs: 'normal', sm: 'nowrap' },
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          lineHeight: 1.25,
          fontSize: { xs: '1rem', sm: '1.25rem' },
          minWidth: 0,
        }}
      />
    </AppBar>
  );
}

/** react-admin's class names (its LayoutClasses, whose module brings its whole <Layout> with the inspector) */
const LayoutClasses = {
  appFrame: 'RaLayout-appFrame',
  contentWithSidebar: 'RaLayout-contentWithSidebar',
  content: 'RaLayout-content',
};

/** react-admin's layout root (`RaLayout`, same classes and styles, so its theme overrides still apply). */
const Core = styled('div', { name: 'RaLayout', overridesResolver: (_props, styles) => styles.root })(
  ({ theme }) => ({
    display: 'flex',
    flexDirection: 'column',
    zIndex: 1,
    minHeight: '100vh',
    backgroundColor: (theme.vars || theme).palette.background.default,
    position: 'relative',
    minWidth: 'fit-content',
    width: '100%',
    [`& .${LayoutClasses.appFrame}`]: {
      display: 'flex',
      flexDirection: 'column',
      flexGrow: 1,
      marginTop: theme.spacing(6),
      [theme.breakpoints.down('sm')]: { marginTop: theme.spacing(7) },
    },
    [`& .${LayoutClasses.contentWithSidebar}`]: {
      display: 'flex',
      flexGrow: 1,
      transition: theme.transitions.create('margin', {
        easing: theme.transitions.easing.easeOut,
        duration: theme.transitions.duration.enteringScreen,
      }),
    },
    [`& .${LayoutClasses.content}`]: {
      backgroundColor: (theme.vars || theme).palette.background.default,
      zIndex: 2,
      display: 'flex',
      flexDirection: 'column',
      flexGrow: 1,
      flexBasis: 0,
      padding: 0,
      [theme.breakpoints.up('xs')]: { paddingRight: theme.spacing(1), paddingLeft: theme.spacing(1) },
    },
  }),
);

/** react-admin's error page, fetched when first needed: it brings the title's preferences and form fields. */
const RaError = lazy(() => import('./raPages').then((m) => ({ default: m.Error })));

/** What react-admin's layout does with react-error-boundary: its error page, reset when the page changes. */
class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error; info?: ErrorInfo }> {
  state: { error?: Error; info?: ErrorInfo } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    this.setState({ error, info });
  }
  render() {
    const { error, info } = this.state;
    return error ? (
      <Suspense fallback={null}>
        <RaError
          error={error}
          errorInfo={info}
          resetErrorBoundary={() => this.setState({ error: undefined })}
        />
      </Suspense>
    ) : (
      this.props.children
    );
  }
}

/**
 * react-admin's <Layout> (skip link, app bar, side menu, error boundary, Suspense) without its preferences
 * inspector, which no screen here uses and which brings form fields into the dashboard's download
 * (docs/decisions/0088-back-office-within-budget.md).
 */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <Core className="layout">
      <SkipNavigationButton />
      <div className={LayoutClasses.appFrame}>
        <ShopAppBar />
        <main className={LayoutClasses.contentWithSidebar}>
          <Sidebar>
            <Menu />
          </Sidebar>
          <div id="main-content" className={LayoutClasses.content}>
            <ErrorBoundary>
              <Suspense fallback={<Loading />}>
                <ComponentTexts>{children}</ComponentTexts>
              </Suspense>
            </ErrorBoundary>
          </div>
        </main>
      </div>
    </Core>
  );
}
