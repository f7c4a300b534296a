import UndoIcon from '@mui/icons-material/Undo';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { apiErrorMessage, errorBody } from '../apiErrors';
import { useFormat } from '../format';
import { adminApi } from '../shopApi';
import { refundFacts, type RefundFacts } from './payment';

/**
 * 'Record refund' on an order the shop holds money for (paid, partly refunded, or cancelled and
 * refund pending): the amount defaults to what is left, a reason is required, through Chapa where
 * the order was paid through Chapa, else manual with its reference. A refusal is said in words.
 */
export function RefundDialog({
  id,
  order,
  onChanged,
}: {
  id: string;
  order: RefundFacts;
  onChanged: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const { money } = useFormat();
  const facts = refundFacts(order);
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [method, setMethod] = useState<'chapa' | 'manual'>('manual');
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [touched, setTouched] = useState(false);
  if (!facts.allowed) return null;

  const value = Number(amount.replace(',', '.'));
  const amountError =
    !Number.isFinite(value) || value <= 0
      ? t('shop.admin.orders.refund.amountInvalid')
      : value > facts.left
        ? t('shop.admin.orders.refund.amountTooHigh', { amount: money(facts.left) })
        : undefined;
  const reasonError = !reason.trim() ? t('shop.admin.orders.refund.reasonRequired') : undefined;
  const referenceError =
    method === 'manual' && !reference.trim() ? t('shop.admin.orders.refund.referenceRequired') : undefined;
  const invalid = Boolean(amountError || reasonError || referenceError);

  const start = () => {
    setAmount(String(facts.left));
    setMethod(facts.chapa ? 'chapa' : 'manual');
    setReason('');
    setReference('');
    setTouched(false);
    setRefusal(undefined);
    setOpen(true);
  };
  const submit = async () => {
    setTouched(true);
    if (invalid) return;
    setBusy(true);
    setRefusal(undefined);
    try {
      await adminApi.recordRefund(id, {
        amount: Math.round(value * 100) / 100,
        reason: reason.trim(),
        method,
        ...(reference.trim() ? { reference: reference.trim() } : {}),
      });
      notify('shop.admin.orders.refund.done', { type: 'success' });
      setOpen(false);
      onChanged();
    } catch (error) {
      const text = apiErrorMessage(error, t, 'shop.admin.orders.refund.failed');
      setRefusal(text);
      // the order moved on elsewhere: show it as it is now
      if (errorBody(error).code === 'NOT_REFUNDABLE') onChanged();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        color="warning"
        startIcon={<UndoIcon />}
        onClick={start}
        data-testid="refund-open"
      >
        {t('shop.admin.orders.refund.action')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{t('shop.admin.orders.refund.title')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <Typography data-testid="refund-left">
            {t('shop.admin.orders.refund.left', { amount: money(facts.left) })}
          </Typography>
          <TextField
            name="amount"
            label={t('shop.admin.orders.refund.amount')}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={touched && Boolean(amountError)}
            helperText={touched ? amountError : undefined}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            fullWidth
          />
          <TextField
            name="reason"
            label={t('shop.admin.orders.refund.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={touched && Boolean(reasonError)}
            helperText={touched ? reasonError : undefined}
            multiline
            minRows={2}
            required
            fullWidth
          />
          <TextField
            select
            name="method"
            label={t('shop.admin.orders.refund.method')}
            value={method}
            onChange={(e) => setMethod(e.target.value as 'chapa' | 'manual')}
            fullWidth
          >
            {facts.chapa && <MenuItem value="chapa">{t('shop.admin.orders.refund.methods.chapa')}</MenuItem>}
            <MenuItem value="manual">{t('shop.admin.orders.refund.methods.manual')}</MenuItem>
          </TextField>
          <TextField
            name="reference"
            label={t('shop.admin.orders.refund.reference')}
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            error={touched && Boolean(referenceError)}
            helperText={
              touched && referenceError ? referenceError : t('shop.admin.orders.refund.referenceHelp')
            }
            fullWidth
          />
          {refusal && (
            <Typography color="error" role="alert" data-testid="refund-refusal">
              {refusal}
            </Typography>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            color="warning"
            onClick={submit}
            disabled={busy}
            data-testid="refund-submit"
          >
            {t('shop.admin.orders.refund.submit')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
