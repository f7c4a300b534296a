import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  AppBar,
  Layout as RaLayout,
  LoadingIndicator,
  LocalesMenuButton,
  TitlePortal,
  ToggleThemeButton,
  useTranslate,
} from 'react-admin';
import { SHOP_COLORS } from '../theme';
import { ComponentTexts } from './ComponentTexts';
import { Menu } from './Menu';

/** The shop's mark and name, as in the storefront's header (the name hides on a phone to leave room for the title). */
export function ShopLogo({ always = false }: { always?: boolean }) {
  const t = useTranslate();
  return (
    <Box
      data-testid="shop-logo"
      sx={{
        display: always ? 'flex' : { xs: 'none', sm: 'flex' },
        alignItems: 'center',
        gap: 1,
        mr: 2,
        flex: 'none',
        whiteSpace: 'nowrap',
      }}
    >
      <Box
        component="span"
        aria-hidden="true"
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 28,
          height: 28,
          borderRadius: '50%',
          bgcolor: SHOP_COLORS.soft,
          color: SHOP_COLORS.rose,
          fontSize: 18,
          lineHeight: 1,
        }}
      >
        ✿
      </Box>
      <Typography
        component="span"
        sx={{ fontWeight: 700, display: always ? 'inline' : { xs: 'none', md: 'inline' } }}
      >
        {t('shop.admin.common.shopName')}
      </Typography>
    </Box>
  );
}

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
