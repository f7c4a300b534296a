import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

/** Marks an order placed without an account (guest checkout): staff reach the customer by the order's phone. */
export function GuestBadge() {
  const t = useTranslate();
  return (
    <Chip
      size="small"
      data-testid="guest-badge"
      label={t('shop.admin.orders.guest')}
      sx={{ bgcolor: '#ede7f6', color: '#4527a0', fontWeight: 700 }}
    />
  );
}
