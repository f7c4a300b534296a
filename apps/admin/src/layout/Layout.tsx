import { Box } from '@mui/material';
import type { ReactNode } from 'react';
import {
  AppBar,
  Layout as RaLayout,
  LoadingIndicator,
  LocalesMenuButton,
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

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout menu={Menu} appBar={ShopAppBar}>
      <ComponentTexts>{children}</ComponentTexts>
    </RaLayout>
  );
}
