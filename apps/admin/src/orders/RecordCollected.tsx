import PaymentsIcon from '@mui/icons-material/Payments';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { errorBody } from '../apiErrors';
import { useFormat } from '../format';
import { adminApi } from '../shopApi';
import {
  canRecordCollection,
  collectErrorText,
  COLLECTION_REFERENCE_MAX,
  type PaymentFacts,
} from './payment';

/**
 * 'Record payment collected' on an unpaid pay-on-delivery order: staff confirm the amount the rider
 * brought, optionally with a receipt or telebirr reference; the API marks the order paid (once).
 * A refusal is said in words, in the chosen language; when the order can no longer be collected
 * (recorded or cancelled from another screen) the page reloads it, so the action goes.
 */
export function RecordCollected({
  id,
  order,
  onChanged,
}: {
  id: string;
  order: PaymentFacts;
  onChanged: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const { money } = useFormat();
  const [open, setOpen] = useState(false);
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  if (!canRecordCollection(order)) return null;
  const tooLong = reference.trim().length > COLLECTION_REFERENCE_MAX;

  const close = () => {
    setOpen(false);
    setRefusal(undefined);
  };
  const record = async () => {
    setBusy(true);
    setRefusal(undefined);
    try {
      await adminApi.recordPaymentCollected(id, reference.trim() || undefined);
      notify('shop.admin.orders.collect.done', { type: 'success' });
      setOpen(false);
      setReference('');
      onChanged();
    } catch (error) {
      const text = collectErrorText(error, t);
      notify(text, { type: 'error', messageArgs: { _: text } });
      if (errorBody(error).code === 'PAYMENT_NOT_COLLECTABLE') {
        // the order moved on elsewhere (recorded, cancelled): show it as it is now; the notice says why
        setOpen(false);
        onChanged();
      } else setRefusal(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="contained"
        color="success"
        startIcon={<PaymentsIcon />}
        onClick={() => setOpen(true)}
        data-testid="record-collected"
      >
        {t('shop.admin.orders.collect.action')}
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs">
        <DialogTitle>{t('shop.admin.orders.collect.title')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <Typography data-testid="collect-amount">
            {t('shop.admin.orders.collect.confirm', { amount: money(Number(order.totalAmount ?? 0)) })}
          </Typography>
          <TextField
            name="reference"
            label={t('shop.admin.orders.collect.reference')}
            helperText={
              tooLong
                ? t('shop.admin.orders.collect.referenceTooLong', { max: COLLECTION_REFERENCE_MAX })
                : t('shop.admin.orders.collect.referenceHelp')
            }
            error={tooLong}
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            fullWidth
          />
          {refusal && (
            <Typography color="error" role="alert" data-testid="collect-refusal">
              {refusal}
            </Typography>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            onClick={record}
            disabled={busy || tooLong}
            data-testid="collect-confirm"
          >
            {t('shop.admin.orders.collect.submit')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
