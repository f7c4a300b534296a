import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  Datagrid,
  FunctionField,
  List,
  ReferenceField,
  SimpleList,
  useLocaleState,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useIsPhone } from '../layout/useIsPhone';
import { ShopDateField } from '../ShopDateField';
import { useFormat } from '../format';
import { auditAction, auditActor, auditValue, type AuditRecordLike } from './auditText';

type AuditRecord = RaRecord & AuditRecordLike & { entityId?: string; createdAt: string };

/** Records an entry can name by what staff know them by: an order by its number, a product by its name. */
const NAMED_BY: Record<string, string> = { order: 'orders', product: 'products' };

/**
 * What an entry changed: the kind of record and its number or name (AN-10042, the product's name in
 * the page's language), fetched for the whole page at once; the id's end only while loading or when
 * the record is gone.
 */
function AuditTarget({ entry }: { entry: AuditRecord }) {
  const t = useTranslate();
  const [locale] = useLocaleState();
  const kind = entry.entity ? t(`shop.admin.audit.entities.${entry.entity}`) : '';
  const shortId = entry.entityId ? `#${entry.entityId.slice(-6)}` : '';
  const reference = entry.entity ? NAMED_BY[entry.entity] : undefined;
  let named: ReactNode = shortId;
  if (reference && entry.entityId)
    named = (
      <ReferenceField record={entry} source="entityId" reference={reference} link={false} emptyText={shortId}>
        <FunctionField
          render={(r: RaRecord) =>
            reference === 'orders'
              ? (r.orderNumber ?? shortId)
              : (locale === 'am' && r.nameAm) || r.name || shortId
          }
        />
      </ReferenceField>
    );
  return (
    <span data-testid="audit-target">
      {kind} {named}
    </span>
  );
}

/** Who changed what, newest first (read-only), in words in both languages. */
export function AuditList() {
  const t = useTranslate();
  const { dateTime } = useFormat();
  const phone = useIsPhone();
  const target = (a: AuditRecord) => <AuditTarget entry={a} />;
  const change = (a: AuditRecord) => `${auditValue(a, a.from, t)} → ${auditValue(a, a.to, t)}`;
  return (
    <List title={t('shop.admin.audit.title')} sort={{ field: 'createdAt', order: 'DESC' }}>
      {phone ? (
        <SimpleList<AuditRecord>
          linkType={false}
          primaryText={(a) => (
            <>
              {auditAction(a, t)} · {target(a)}
            </>
          )}
          secondaryText={(a) => (
            <Box component="span" sx={{ display: 'grid' }}>
              <span>{change(a)}</span>
              <span data-testid="audit-actor">{auditActor(a, t)}</span>
            </Box>
          )}
          tertiaryText={(a) => dateTime(a.createdAt)}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <ShopDateField source="createdAt" label="shop.admin.audit.date" sortBy="createdAt" showTime />
          <FunctionField
            label="shop.admin.audit.actor"
            render={(a: AuditRecord) => <span data-testid="audit-actor">{auditActor(a, t)}</span>}
          />
          <FunctionField
            label="shop.admin.audit.action"
            sortBy="action"
            render={(a: AuditRecord) => <span data-testid="audit-action">{auditAction(a, t)}</span>}
          />
          <FunctionField label="shop.admin.audit.target" render={target} />
          <FunctionField
            label="shop.admin.audit.details"
            render={(a: AuditRecord) => <Typography variant="body2">{change(a)}</Typography>}
          />
        </Datagrid>
      )}
    </List>
  );
}
