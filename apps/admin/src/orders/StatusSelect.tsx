import { MenuItem, TextField } from '@mui/material';
import { ORDER_TRANSITIONS, type OrderStatus } from '@shop/shared';
import { useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { adminApi } from '../shopApi';

/** The status dropdown: the current status plus only the moves the status machine allows. */
export function StatusSelect({
  id,
  status,
  trackingNumber,
  onChanged,
}: {
  id: string;
  status: OrderStatus;
  trackingNumber?: string;
  onChanged?: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const moves = ORDER_TRANSITIONS[status] ?? [];

  const change = async (next: OrderStatus) => {
    if (next === status) return;
    setBusy(true);
    try {
      await adminApi.setOrderStatus(id, next, trackingNumber || undefined);
      notify('shop.admin.orders.statusUpdated', { type: 'success' });
      refresh();
      onChanged?.();
    } catch {
      notify('shop.admin.orders.statusFailed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <TextField
      select
      size="small"
      value={status}
      disabled={busy || moves.length === 0}
      onChange={(e) => change(e.target.value as OrderStatus)}
      onClick={(e) => e.stopPropagation()}
      slotProps={{
        htmlInput: { 'aria-label': t('shop.admin.orders.changeStatus'), 'data-testid': 'status-select' },
      }}
      variant="outlined"
      sx={{ width: 180, flex: '0 0 auto' }}
    >
      {[status, ...moves].map((s) => (
        <MenuItem key={s} value={s}>
          {t(`shop.admin.orders.status.${s}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
