import type { components } from '@shop/api-client';
import {
  Datagrid,
  List,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ShopDateField } from '../ShopDateField';

/** A record as GET /api/admin/mails answers it (generated from openapi.yaml). */
type MailRecord = RaRecord & components['schemas']['MailRecordDto'];

function MailText() {
  const record = useRecordContext<MailRecord>();
  return <pre style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>{record?.text}</pre>;
}

/** Development only (no SMTP_HOST): what the API's local SMTP server received, newest first. */
export function MailList() {
  const t = useTranslate();
  return (
    <List
      title={t('shop.outbox.mailsTitle')}
      sort={{ field: 'id', order: 'DESC' }}
      filters={[<TextInput key="q" source="q" label="shop.outbox.recipient" alwaysOn />]}
    >
      <Datagrid bulkActionButtons={false} rowClick="expand" expand={<MailText />}>
        <ShopDateField source="receivedAt" label="shop.outbox.date" showTime sortable={false} />
        <TextField source="to" label="shop.outbox.recipient" sortable={false} />
        <TextField source="subject" label="shop.outbox.subject" sortable={false} />
      </Datagrid>
    </List>
  );
}
