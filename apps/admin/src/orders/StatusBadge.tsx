import { Chip } from '@mui/material';
import { type OrderStatus } from '@shop/shared';
import { useTranslate } from 'react-admin';

/** Badge colours of the spec: pending yellow, processing blue, shipped purple, delivered green, cancelled red. */
export const STATUS_STYLE: Record<OrderStatus, { bg: string; fg: string }> = {
  pending: { bg: '#fff8e1', fg: '#8d6e00' },
  processing: { bg: '#e3f2fd', fg: '#0d47a1' },
  shipped: { bg: '#f3e5f5', fg: '#6a1b9a' },
  delivered: { bg: '#e8f5e9', fg: '#1b5e20' },
  cancelled: { bg: '#ffebee', fg: '#b71c1c' },
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  const t = useTranslate();
  const style = STATUS_STYLE[status] ?? { bg: '#eeeeee', fg: '#424242' };
  return (
    <Chip
      size="small"
      data-testid="status-badge"
      data-status={status}
      label={t(`shop.admin.orders.status.${status}`)}
      sx={{ bgcolor: style.bg, color: style.fg, fontWeight: 700 }}
    />
  );
}
