import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  TextField,
  useLocaleState,
  useTranslate,
  type RaRecord,
} from 'react-admin';

interface AuditRecord extends RaRecord {
  action: string;
  actor?: { name?: string; email?: string } | string;
  actorEmail?: string;
  entity?: string;
  entityId?: string;
  from?: unknown;
  to?: unknown;
  createdAt: string;
}

const show = (v: unknown) =>
  v === undefined || v === null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const actorOf = (a: AuditRecord) =>
  a.actorEmail ?? (typeof a.actor === 'object' ? (a.actor?.email ?? a.actor?.name) : a.actor) ?? '';

/** Who changed what, newest first (read-only). */
export function AuditList() {
  const t = useTranslate();
  const [locale] = useLocaleState();
  return (
    <List title={t('shop.admin.audit.title')} sort={{ field: 'createdAt', order: 'DESC' }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField
          source="createdAt"
          label="shop.admin.audit.date"
          showTime
          locales={locale === 'am' ? 'am-ET' : 'en-US'}
        />
        <FunctionField label="shop.admin.audit.actor" render={actorOf} />
        <TextField source="action" label="shop.admin.audit.action" />
        <FunctionField
          label="shop.admin.audit.target"
          render={(a: AuditRecord) =>
            [a.entity, a.entityId ? `#${a.entityId.slice(-6)}` : ''].filter(Boolean).join(' ')
          }
        />
        <FunctionField
          label="shop.admin.audit.details"
          render={(a: AuditRecord) => `${show(a.from)} → ${show(a.to)}`}
        />
      </Datagrid>
    </List>
  );
}
