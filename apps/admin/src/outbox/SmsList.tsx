import type { components } from '@shop/api-client';
import { Typography } from '@mui/material';
import {
  Datagrid,
  FunctionField,
  List,
  SimpleList,
  TextField,
  TextInput,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useFormat } from '../format';
import { useIsPhone } from '../layout/useIsPhone';
import { ShopDateField } from '../ShopDateField';

/** An SMS as GET /api/admin/sms answers it (generated from openapi.yaml): recipient, text, time sent. */
type SmsRecord = RaRecord & components['schemas']['SmsRecordDto'];

/**
 * Development only (no SMS gateway configured): the SMS the shop would have sent, newest first, e.g.
 * the sign-in codes a developer or a test reads. Times in the shop's clock, as everywhere else.
 */
export function SmsList() {
  const t = useTranslate();
  const phone = useIsPhone();
  const { dateTime } = useFormat();
  return (
    <List
      title={t('shop.outbox.smsTitle')}
      sort={{ field: 'id', order: 'DESC' }}
      filters={[<TextInput key="q" source="q" label="shop.outbox.recipient" alwaysOn />]}
    >
      {phone ? (
        <SimpleList<SmsRecord>
          linkType={false}
          primaryText={(s) => <span data-testid="sms-to">{s.to}</span>}
          secondaryText={(s) => (
            <span data-testid="sms-text" style={{ whiteSpace: 'pre-wrap' }}>
              {s.text}
            </span>
          )}
          tertiaryText={(s) => dateTime(s.sentAt)}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <ShopDateField source="sentAt" label="shop.outbox.date" showTime sortable={false} />
          <TextField source="to" label="shop.outbox.recipient" sortable={false} data-testid="sms-to" />
          <FunctionField
            label="shop.outbox.text"
            render={(s: SmsRecord) => (
              <Typography variant="body2" data-testid="sms-text" sx={{ whiteSpace: 'pre-wrap' }}>
                {s.text}
              </Typography>
            )}
          />
        </Datagrid>
      )}
    </List>
  );
}
