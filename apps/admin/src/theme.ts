import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * The storefront's stack (apps/storefront/app/styles.css): the self-hosted Noto Sans Ethiopic first (its
 * Latin faces and Amharic cut, imported in fonts.ts), then other Ethiopic fonts, then the system's. Every
 * element of the theme (headings, menu, chips, buttons, inputs, tables, the chart) uses this one stack.
 */
export const FONT_FAMILY = [
  "'Noto Sans Ethiopic'",
  'Nyala',
  "'Abyssinica SIL'",
  'system-ui',
  '-apple-system',
  "'Segoe UI'",
  'Roboto',
  'sans-serif',
].join(', ');

/** The only weights the theme draws text in; each one is self-hosted (fonts.ts). */
export const FONT_WEIGHTS = [400, 500, 700] as const;

/** The shop's colours, from the storefront's CSS variables. */
export const SHOP_COLORS = {
  ink: '#2f2a24',
  muted: '#665c50',
  accent: '#3f6b2c',
  accentDark: '#2f5220',
  soft: '#f6f1e9',
  line: '#e6dccd',
  rose: '#9c3452',
  gold: '#8a5a00',
  danger: '#a61b1b',
  page: '#fffdf9',
} as const;

const typography = {
  fontFamily: FONT_FAMILY,
  fontWeightLight: 400,
  fontWeightRegular: 400,
  fontWeightMedium: 500,
  fontWeightBold: 700,
  h1: { fontFamily: FONT_FAMILY, fontWeight: 700 },
  h2: { fontFamily: FONT_FAMILY, fontWeight: 700 },
  h3: { fontFamily: FONT_FAMILY, fontWeight: 700 },
  h4: { fontFamily: FONT_FAMILY, fontWeight: 700 },
  h5: { fontFamily: FONT_FAMILY, fontWeight: 700 },
  h6: { fontFamily: FONT_FAMILY, fontWeight: 500 },
  button: { fontFamily: FONT_FAMILY, fontWeight: 500, textTransform: 'none' as const },
};

/** Components that set a font of their own get the shop's stack too (MUI defaults some to Roboto). */
const fontEverywhere = { fontFamily: FONT_FAMILY };
const components = {
  MuiCssBaseline: {
    styleOverrides: { 'body, svg text, input, textarea, select, button': fontEverywhere },
  },
  MuiChip: { styleOverrides: { root: { ...fontEverywhere, fontWeight: 700 } } },
  MuiInputBase: { styleOverrides: { root: fontEverywhere, input: fontEverywhere } },
  MuiFormLabel: { styleOverrides: { root: fontEverywhere } },
  MuiMenuItem: { styleOverrides: { root: fontEverywhere } },
  MuiTableCell: { styleOverrides: { root: fontEverywhere } },
  MuiTab: { styleOverrides: { root: { ...fontEverywhere, textTransform: 'none' as const } } },
  MuiTooltip: { styleOverrides: { tooltip: fontEverywhere } },
  MuiAppBar: {
    styleOverrides: { colorSecondary: { backgroundColor: SHOP_COLORS.accentDark, color: '#fff' } },
  },
};

function shopTheme(base: RaThemeOptions, dark: boolean): RaThemeOptions {
  const baseComponents = (base.components ?? {}) as Record<string, object>;
  const merged: Record<string, object> = { ...baseComponents };
  for (const [name, value] of Object.entries(components)) {
    const prev = (baseComponents[name] ?? {}) as { styleOverrides?: object };
    merged[name] = {
      ...prev,
      ...value,
      styleOverrides: { ...(prev.styleOverrides ?? {}), ...value.styleOverrides },
    };
  }
  return {
    ...base,
    palette: {
      ...(base.palette as object),
      primary: { main: dark ? '#8fbf72' : SHOP_COLORS.accent, dark: SHOP_COLORS.accentDark },
      secondary: { main: dark ? '#e58fa6' : SHOP_COLORS.rose },
      error: { main: dark ? '#ef9a9a' : SHOP_COLORS.danger },
      ...(dark
        ? {}
        : {
            background: { default: SHOP_COLORS.page, paper: '#ffffff' },
            text: { primary: SHOP_COLORS.ink, secondary: SHOP_COLORS.muted },
            divider: SHOP_COLORS.line,
          }),
    },
    shape: { borderRadius: 8 },
    typography: { ...(base.typography as object), ...typography },
    components: merged as RaThemeOptions['components'],
  };
}

export const lightTheme = shopTheme(defaultLightTheme, false);
export const darkTheme = shopTheme(defaultDarkTheme, true);
