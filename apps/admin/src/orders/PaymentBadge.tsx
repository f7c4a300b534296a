import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { isPayOnDelivery, PAY_ON_DELIVERY } from '@shop/shared';
import { paymentMethodKey } from './payment';

/** Payment states: unpaid (amber), paid (green), failed (red), refund pending (rose, filled: money is owed back), partly refunded (lilac), refunded (grey). */
export const PAYMENT_STYLE: Record<string, { bg: string; fg: string }> = {
  unpaid: { bg: '#fff3e0', fg: '#8a5a00' },
  paid: { bg: '#e8f5e9', fg: '#1b5e20' },
  failed: { bg: '#ffebee', fg: '#a61b1b' },
  refund_pending: { bg: '#9c3452', fg: '#ffffff' },
  partially_refunded: { bg: '#f3e5f5', fg: '#5e2470' },
  refunded: { bg: '#eeeeee', fg: '#424242' },
};

export function PaymentBadge({ status }: { status?: string }) {
  const t = useTranslate();
  if (!status) return null;
  const style = PAYMENT_STYLE[status] ?? { bg: '#eeeeee', fg: '#424242' };
  return (
    <Chip
      size="small"
      data-testid="payment-badge"
      data-payment={status}
      label={t(`shop.admin.orders.paymentStatuses.${status}`)}
      sx={{ bgcolor: style.bg, color: style.fg, fontWeight: 700 }}
    />
  );
}

/** The payment method in words ('Pay on delivery', 'Chapa'), outlined beside the payment state; pay on delivery stands out. */
export function PaymentMethodChip({ method }: { method?: string | null }) {
  const t = useTranslate();
  const cod = isPayOnDelivery(method);
  return (
    <Chip
      size="small"
      variant="outlined"
      data-testid="payment-method"
      data-method={cod ? PAY_ON_DELIVERY : (method ?? 'chapa')}
      label={t(paymentMethodKey(method))}
      sx={cod ? { borderColor: '#8a5a00', color: '#8a5a00', fontWeight: 700 } : undefined}
    />
  );
}
