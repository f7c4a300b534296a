import { MenuItem, TextField } from '@mui/material';
import {
  canTransitionPayment,
  nextStatuses,
  PAYMENT_STATUSES,
  type OrderStatus,
  type PaymentStatus,
} from '@shop/shared';
import { useState } from 'react';
import { Confirm, useNotify, useRefresh, useTranslate } from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { adminApi } from '../shopApi';

/**
 * The status dropdown: the current status plus only the moves the status machine allows and the
 * payment permits (libs/shared nextStatuses: no processing/shipped for an online order not paid, the
 * API's ORDER_NOT_PAID). Cancelling a paid order asks first: the API then flags the payment
 * refund_pending (PAYMENT_TRANSITIONS).
 */
export function StatusSelect({
  id,
  status,
  paymentStatus,
  paymentMethod,
  trackingNumber,
  onChanged,
}: {
  id: string;
  status: OrderStatus;
  paymentStatus?: string;
  paymentMethod?: string | null;
  trackingNumber?: string;
  onChanged?: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const moves = nextStatuses({ status, paymentStatus: paymentStatus ?? '', paymentMethod });
  const cancelFlagsRefund =
    PAYMENT_STATUSES.includes(paymentStatus as PaymentStatus) &&
    canTransitionPayment(paymentStatus as PaymentStatus, 'refund_pending');

  const change = async (next: OrderStatus) => {
    if (next === status) return;
    setBusy(true);
    try {
      await adminApi.setOrderStatus(id, next, trackingNumber || undefined);
      notify(
        next === 'cancelled' && cancelFlagsRefund
          ? 'shop.admin.orders.cancelledRefund'
          : 'shop.admin.orders.statusUpdated',
        {
          type: 'success',
        },
      );
      refresh();
      onChanged?.();
    } catch (error) {
      notifyError(error, 'shop.admin.orders.statusFailed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <TextField
        select
        size="small"
        value={status}
        disabled={busy || moves.length === 0}
        onChange={(e) => {
          const next = e.target.value as OrderStatus;
          if (next === 'cancelled' && cancelFlagsRefund) setConfirming(true);
          else void change(next);
        }}
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
      <Confirm
        isOpen={confirming}
        title="shop.admin.orders.cancelPaidTitle"
        content="shop.admin.orders.cancelPaidContent"
        onConfirm={() => {
          setConfirming(false);
          void change('cancelled');
        }}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
