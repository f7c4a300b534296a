import { useMediaQuery, type Theme } from '@mui/material';

/** Below 600 px (MUI's `sm`) lists show as cards (react-admin SimpleList) instead of tables. */
export function useIsPhone(): boolean {
  return useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
}
