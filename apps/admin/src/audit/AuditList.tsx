import { Box, Typography } from '@mui/material';
import { Datagrid, FunctionField, List, SimpleList, useTranslate, type RaRecord } from 'react-admin';
import { useIsPhone } from '../layout/useIsPhone';
import { ShopDateField } from '../ShopDateField';
import { useFormat } from '../format';
import { auditAction, auditActor, auditValue, type AuditRecordLike } from './auditText';

type AuditRecord = RaRecord & AuditRecordLike & { entityId?: string; createdAt: string };

/** Who changed what, newest first (read-only), in words in both languages. */
export function AuditList() {
  const t = useTranslate();
  const { dateTime } = useFormat();
  const phone = useIsPhone();
  const target = (a: AuditRecord) =>
    [a.entity ? t(`shop.admin.audit.entities.${a.entity}`) : '', a.entityId ? `#${a.entityId.slice(-6)}` : '']
      .filter(Boolean)
      .join(' ');
  const change = (a: AuditRecord) => `${auditValue(a, a.from, t)} → ${auditValue(a, a.to, t)}`;
  return (
    <List title={t('shop.admin.audit.title')} sort={{ field: 'createdAt', order: 'DESC' }}>
      {phone ? (
        <SimpleList<AuditRecord>
          linkType={false}
          primaryText={(a) => `${auditAction(a, t)} · ${target(a)}`}
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
