import type { components } from '@shop/api-client';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { CONTACT_STATUSES, type ContactStatus } from '@shop/shared';
import { useState } from 'react';
import {
  Datagrid,
  DeleteWithConfirmButton,
  FunctionField,
  List,
  SelectInput,
  SimpleList,
  TextField as RaTextField,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
  SearchInput,
} from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { adminApi } from '../shopApi';
import { useFormat } from '../format';
import { ShopDateField } from '../ShopDateField';
import { replyToContact } from './contactsApi';

/** A record as GET /api/admin/contacts answers it (generated from openapi.yaml). */
type ContactRecord = RaRecord & components['schemas']['ContactRecordDto'];

const STATUS_COLOR: Record<ContactStatus, 'warning' | 'default' | 'success'> = {
  unread: 'warning',
  read: 'default',
  replied: 'success',
};

function StatusChip({ status }: { status: ContactStatus }) {
  const t = useTranslate();
  return (
    <Chip
      size="small"
      data-testid="contact-status"
      data-status={status}
      color={STATUS_COLOR[status] ?? 'default'}
      label={t(`shop.admin.contacts.status.${status}`)}
    />
  );
}

function useMarkRead() {
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  return async (contact: ContactRecord, status: ContactStatus = 'read') => {
    try {
      await adminApi.setContactStatus(String(contact.id), status);
      notify('shop.admin.contacts.statusUpdated', { type: 'success' });
      refresh();
      return true;
    } catch (error) {
      notifyError(error, 'shop.admin.contacts.statusFailed');
      return false;
    }
  };
}

const REPLY_MAX = 5000;

/** The conversation: the customer's message, then each staff reply with its author and time (shop clock). */
function Thread({ contact }: { contact: ContactRecord }) {
  const t = useTranslate();
  const { dateTime } = useFormat();
  const replies = contact.replies ?? [];
  return (
    <Box component="section" aria-label={t('shop.admin.contacts.thread')} data-testid="contact-thread">
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {t('shop.admin.contacts.thread')}
      </Typography>
      {replies.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('shop.admin.contacts.noReplies')}
        </Typography>
      )}
      {replies.map((r) => (
        <Box
          key={r._id}
          data-testid="contact-reply"
          sx={{ borderLeft: 3, borderColor: 'primary.main', pl: 1.5, my: 1.5, overflowWrap: 'anywhere' }}
        >
          <Typography variant="caption" color="text.secondary" data-testid="contact-reply-meta">
            {t('shop.admin.contacts.replyMeta', { name: r.authorName, date: dateTime(r.at) })}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {r.text}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function ContactDialog({ contact: initial, onClose }: { contact: ContactRecord; onClose: () => void }) {
  const t = useTranslate();
  const { dateTime } = useFormat();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const setStatus = useMarkRead();
  const [contact, setContact] = useState(initial);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [empty, setEmpty] = useState(false);
  const language = contact.language === 'am' || contact.language === 'en' ? contact.language : undefined;
  const send = async () => {
    if (!text.trim()) {
      setEmpty(true);
      return;
    }
    setSending(true);
    try {
      const updated = await replyToContact(String(contact.id), text.trim());
      setContact({ ...contact, ...updated, id: contact.id } as ContactRecord);
      setText('');
      notify('shop.admin.contacts.replySent', { type: 'success' });
      refresh();
    } catch (error) {
      notifyError(error, 'shop.admin.contacts.replyFailed');
    } finally {
      setSending(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" scroll="paper">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{contact.subject}</DialogTitle>
      <DialogContent data-testid="contact-detail">
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          <strong>{contact.name}</strong> &lt;{contact.email}&gt;
        </Typography>
        <Typography variant="caption" color="text.secondary" data-testid="contact-received">
          {t('shop.admin.contacts.received', { date: dateTime(contact.createdAt) })}
          {contact.ipAddress ? ` · ${t('shop.admin.contacts.ip')}: ${contact.ipAddress}` : ''}
        </Typography>
        <Box sx={{ my: 2 }}>
          <StatusChip status={contact.status} />
        </Box>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{contact.message}</Typography>
        <Thread contact={contact} />
        <TextField
          label={t('shop.admin.contacts.replyLabel')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setEmpty(false);
          }}
          multiline
          minRows={3}
          fullWidth
          margin="normal"
          error={empty}
          slotProps={{ htmlInput: { maxLength: REPLY_MAX, 'data-testid': 'contact-reply-text' } }}
          helperText={
            empty
              ? t('shop.admin.contacts.replyEmpty')
              : t('shop.admin.contacts.replyHelp', {
                  email: contact.email,
                  language: t(`shop.admin.contacts.languages.${language ?? 'en'}`),
                })
          }
        />
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" onClick={send} disabled={sending} data-testid="contact-reply-send">
          {t('shop.admin.contacts.send')}
        </Button>
        {contact.status === 'unread' && (
          <Button onClick={async () => (await setStatus(contact)) && onClose()}>
            {t('shop.admin.contacts.markRead')}
          </Button>
        )}
        {contact.status !== 'replied' && (
          <Button onClick={async () => (await setStatus(contact, 'replied')) && onClose()}>
            {t('shop.admin.contacts.markReplied')}
          </Button>
        )}
        <Button onClick={onClose}>{t('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export function ContactList() {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const markRead = useMarkRead();
  const [open, setOpen] = useState<ContactRecord | null>(null);
  const { dateTime } = useFormat();
  // a phone gets one line per message (a table would scroll sideways at 390 px)
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn />,
    <SelectInput
      key="status"
      source="status"
      label="shop.admin.contacts.statusLabel"
      alwaysOn
      emptyText="shop.admin.contacts.allStatuses"
      choices={CONTACT_STATUSES.map((s) => ({ id: s, name: t(`shop.admin.contacts.status.${s}`) }))}
    />,
  ];
  return (
    <>
      <List
        title={t('shop.admin.contacts.title')}
        filters={filters}
        sort={{ field: 'createdAt', order: 'DESC' }}
        queryOptions={{ onError: (error: unknown) => notifyError(error, 'shop.admin.contacts.fetchFailed') }}
      >
        {phone ? (
          <SimpleList<ContactRecord>
            linkType={false}
            rowClick={(_id, _res, record) => {
              setOpen(record as ContactRecord);
              return false;
            }}
            primaryText={(c) => (
              <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Box
                  component="span"
                  sx={{ fontWeight: c.status === 'unread' ? 700 : 400, overflowWrap: 'anywhere' }}
                >
                  {c.name}
                </Box>
                <StatusChip status={c.status} />
              </Box>
            )}
            secondaryText={(c) => (
              <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                {[c.subject, c.email, dateTime(c.createdAt)].join(' · ')}
              </Box>
            )}
          />
        ) : (
          <Datagrid
            bulkActionButtons={false}
            rowClick={(_id, _res, record) => {
              setOpen(record as ContactRecord);
              return false;
            }}
          >
            <FunctionField
              label="shop.admin.contacts.contact"
              sortBy="name"
              render={(c: ContactRecord) => (
                <Box>
                  <Typography variant="body2" sx={{ fontWeight: c.status === 'unread' ? 700 : 400 }}>
                    {c.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {c.email}
                  </Typography>
                </Box>
              )}
            />
            <RaTextField source="subject" label="shop.admin.contacts.subject" />
            <FunctionField
              label="shop.admin.contacts.statusLabel"
              sortBy="status"
              render={(c: ContactRecord) => <StatusChip status={c.status} />}
            />
            <ShopDateField source="createdAt" label="shop.admin.contacts.date" sortBy="createdAt" />
            <FunctionField
              label="shop.admin.common.actions"
              render={(c: ContactRecord) => (
                <Box sx={{ display: 'flex', gap: 1 }} onClick={(e) => e.stopPropagation()}>
                  <Button size="small" onClick={() => setOpen(c)}>
                    {t('shop.admin.contacts.view')}
                  </Button>
                  {c.status === 'unread' && (
                    <Button size="small" onClick={() => markRead(c)}>
                      {t('shop.admin.contacts.markRead')}
                    </Button>
                  )}
                  <DeleteWithConfirmButton
                    record={c}
                    redirect={false}
                    mutationMode="pessimistic"
                    confirmTitle={t('shop.admin.contacts.deleteTitle')}
                    confirmContent={t('shop.admin.contacts.deleteConfirm')}
                    mutationOptions={{
                      onSuccess: () => {
                        notify('shop.admin.contacts.deleted', { type: 'success' });
                        refresh();
                      },
                      onError: (error: unknown) => notifyError(error, 'shop.admin.contacts.deleteFailed'),
                    }}
                  />
                </Box>
              )}
            />
          </Datagrid>
        )}
      </List>
      {open && <ContactDialog contact={open} onClose={() => setOpen(null)} />}
    </>
  );
}
