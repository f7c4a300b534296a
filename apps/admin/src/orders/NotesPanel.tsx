import { Box, Button, Card, CardContent, CardHeader, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { apiErrorMessage } from '../apiErrors';
import { useFormat } from '../format';
import { adminApi } from '../shopApi';

export interface OrderNote {
  _id: string;
  text: string;
  byName?: string;
  at: string;
}

/** The longest note the API keeps. */
export const NOTE_MAX = 2000;

/**
 * Internal notes on an order (staff only: customers never see them): each with its author and time,
 * newest last, and a box to add one.
 */
export function NotesPanel({
  id,
  notes,
  onChanged,
}: {
  id: string;
  notes: OrderNote[];
  onChanged: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const { dateTime } = useFormat();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const tooLong = text.trim().length > NOTE_MAX;

  const add = async () => {
    if (!text.trim() || tooLong) return;
    setBusy(true);
    try {
      await adminApi.addOrderNote(id, text.trim());
      setText('');
      notify('shop.admin.orders.notes.added', { type: 'success' });
      onChanged();
    } catch (error) {
      const message = apiErrorMessage(error, t, 'shop.admin.orders.notes.failed');
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="order-notes">
      <CardHeader
        title={t('shop.admin.orders.notes.title')}
        subheader={t('shop.admin.orders.notes.staffOnly')}
      />
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        {notes.length === 0 && (
          <Typography color="text.secondary">{t('shop.admin.orders.notes.empty')}</Typography>
        )}
        {notes.map((n) => (
          <Box key={n._id} data-testid="order-note" sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}>
            <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{n.text}</Typography>
            <Typography variant="caption" color="text.secondary">
              {n.byName ?? '—'} · {dateTime(n.at)}
            </Typography>
          </Box>
        ))}
        <TextField
          name="note"
          label={t('shop.admin.orders.notes.add')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={tooLong}
          helperText={tooLong ? t('shop.admin.orders.notes.tooLong', { max: NOTE_MAX }) : undefined}
          multiline
          minRows={2}
          fullWidth
        />
        <Box>
          <Button
            variant="contained"
            onClick={add}
            disabled={busy || !text.trim() || tooLong}
            data-testid="note-add"
          >
            {t('shop.admin.orders.notes.submit')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
