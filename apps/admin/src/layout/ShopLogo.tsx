import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SHOP_COLORS } from '../theme';

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
