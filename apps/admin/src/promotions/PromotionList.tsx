import { Box, Chip } from '@mui/material';
import {
  CreateButton,
  Datagrid,
  EditButton,
  FunctionField,
  List,
  SearchInput,
  SimpleList,
  TopToolbar,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useFormat } from '../format';
import { useIsPhone } from '../layout/useIsPhone';

/** A sale as GET /api/admin/promotions answers it. */
export type PromotionRecord = RaRecord & {
  name: { en: string; am: string };
  kind: 'percent' | 'fixed';
  value: number;
  productIds: string[];
  categories: string[];
  startsAt: string;
  endsAt: string;
  active: boolean;
  status: 'scheduled' | 'running' | 'ended' | 'paused';
};

const STATUS_COLOUR = { running: 'success', scheduled: 'info', paused: 'warning', ended: 'default' } as const;

/** Staff's scheduled sales: name, how much off, when, and whether it runs now. */
export function PromotionList() {
  const t = useTranslate();
  const phone = useIsPhone();
  const { lang, money, dateTime } = useFormat();
  const nameOf = (p: PromotionRecord) => (lang === 'am' ? p.name.am : p.name.en) || p.name.en;
  const off = (p: PromotionRecord) => (p.kind === 'percent' ? `${p.value}%` : money(p.value));
  const status = (p: PromotionRecord) => (
    <Chip
      size="small"
      color={STATUS_COLOUR[p.status]}
      label={t(`shop.admin.promotions.status.${p.status}`)}
    />
  );
  const when = (p: PromotionRecord) => `${dateTime(p.startsAt)} – ${dateTime(p.endsAt)}`;
  return (
    <List
      title={t('shop.admin.promotions.title')}
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      sort={{ field: 'startsAt', order: 'DESC' }}
      actions={
        <TopToolbar>
          <CreateButton label="shop.admin.promotions.add" />
        </TopToolbar>
      }
    >
      {phone ? (
        <SimpleList<PromotionRecord>
          linkType="edit"
          primaryText={(p) => `${nameOf(p)} · ${off(p)}`}
          secondaryText={(p) => (
            <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              {status(p)}
              <span>{when(p)}</span>
            </Box>
          )}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick="edit">
          <FunctionField label="shop.admin.promotions.name" render={nameOf} />
          <FunctionField label="shop.admin.promotions.value" render={off} />
          <FunctionField
            label="shop.admin.promotions.startsAt"
            sortBy="startsAt"
            render={(p: PromotionRecord) => dateTime(p.startsAt)}
          />
          <FunctionField
            label="shop.admin.promotions.endsAt"
            sortBy="endsAt"
            render={(p: PromotionRecord) => dateTime(p.endsAt)}
          />
          <FunctionField label="shop.admin.promotions.state" render={status} />
          <EditButton />
        </Datagrid>
      )}
    </List>
  );
}
