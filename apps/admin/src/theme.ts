import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * MUI's Latin stack, then the self-hosted Noto Sans Ethiopic (imported in main.tsx), so Amharic renders
 * the same on machines without an Ethiopic system font; the font's files are fetched only for Ethiopic text.
 */
export const FONT_FAMILY = [
  'Roboto',
  'Helvetica',
  'Arial',
  "'Noto Sans Ethiopic'",
  'Nyala',
  "'Abyssinica SIL'",
  'sans-serif',
].join(', ');

function withFont(theme: RaThemeOptions): RaThemeOptions {
  return { ...theme, typography: { ...(theme.typography as object), fontFamily: FONT_FAMILY } };
}

export const lightTheme = withFont(defaultLightTheme);
export const darkTheme = withFont(defaultDarkTheme);
