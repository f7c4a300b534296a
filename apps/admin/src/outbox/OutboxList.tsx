import type { components } from '@shop/api-client';
import { Button } from '@mui/material';
import {
  Datagrid,
  FunctionField,
  List,
  SelectInput,
  TextField,
  TextInput,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ShopDateField } from '../ShopDateField';
import { useNotifyApiError } from '../apiErrors';
import { adminApi } from '../shopApi';
import { channelLabel, templateLabel } from './outboxWords';

/** A record as GET /api/admin/notifications answers it (generated from openapi.yaml). */
type OutboxRecord = RaRecord & components['schemas']['NotificationRecordDto'];

/** The message as sent (a password reset's content is never shown). */
function OutboxText() {
  const t = useTranslate();
  const record = useRecordContext<OutboxRecord>();
  return (
    <pre style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>
      {record?.sensitive ? t('shop.outbox.hidden') : record?.text}
    </pre>
  );
}

const STATES = ['pending', 'sending', 'sent', 'failed'];

/** Sends a sent or failed message again (POST /api/admin/notifications/{id}/resend). */
function ResendButton({ record }: { record: OutboxRecord }) {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  if (record.sensitive || (record.state !== 'sent' && record.state !== 'failed')) return null;
  const resend = async () => {
    try {
      await adminApi.resendNotification(String(record.id));
      notify('shop.outbox.resent', { type: 'info' });
    } catch (error) {
      notifyError(error, 'shop.outbox.resendFailed');
    }
    refresh();
  };
  return (
    <Button size="small" onClick={resend}>
      {t('shop.outbox.resend')}
    </Button>
  );
}

const filters = [
  <SelectInput
    key="state"
    source="state"
    label="shop.outbox.state"
    choices={STATES.map((id) => ({ id, name: `shop.outbox.states.${id}` }))}
    alwaysOn
  />,
  <TextInput key="q" source="q" label="shop.outbox.recipient" />,
];

/** The outbox: every message the shop sends, its delivery state and attempts; staff resend from here. */
export function OutboxList() {
  const t = useTranslate();
  return (
    <List title={t('shop.outbox.title')} sort={{ field: 'createdAt', order: 'DESC' }} filters={filters}>
      <Datagrid bulkActionButtons={false} rowClick="expand" expand={<OutboxText />}>
        <ShopDateField source="createdAt" label="shop.outbox.date" showTime sortBy="createdAt" />
        <TextField source="to" label="shop.outbox.recipient" />
        <FunctionField
          label="shop.outbox.channel"
          sortBy="channel"
          render={(r: OutboxRecord) => channelLabel(r.channel, t)}
        />
        <FunctionField
          label="shop.outbox.template"
          sortBy="template"
          render={(r: OutboxRecord) => templateLabel(r.template, t)}
        />
        <FunctionField
          label="shop.outbox.state"
          render={(r: OutboxRecord) => t(`shop.outbox.states.${r.state}`)}
        />
        <TextField source="attempts" label="shop.outbox.attempts" />
        <TextField source="lastError" label="shop.outbox.lastError" emptyText="—" />
        <FunctionField label="" render={(r: OutboxRecord) => <ResendButton record={r} />} />
      </Datagrid>
    </List>
  );
}
