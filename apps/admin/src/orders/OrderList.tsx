import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, Button, Typography } from '@mui/material';
import { formatMoney, ORDER_STATUSES } from '@shop/shared';
import {
  Datagrid,
  FunctionField,
  List,
  RefreshButton,
  SearchInput,
  SelectInput,
  TopToolbar,
  useListContext,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { storefrontUrl } from '../config';
import { customerOf, shortId, type OrderRecord } from './orderFields';
import { StatusBadge } from './StatusBadge';
import { StatusSelect } from './StatusSelect';
import { ShopDateField } from '../ShopDateField';

function OrderCount() {
  const t = useTranslate();
  const { total } = useListContext();
  return (
    <Typography variant="body2" data-testid="order-count" sx={{ mr: 'auto', alignSelf: 'center' }}>
      {t('shop.admin.orders.count', { smart_count: total ?? 0 })}
    </Typography>
  );
}

function OrderActions({ onRefresh }: { onRefresh: () => void }) {
  return (
    <TopToolbar sx={{ width: '100%' }}>
      <OrderCount />
      <RefreshButton onClick={onRefresh} />
    </TopToolbar>
  );
}

/** No orders yet: the spec offers 'Create Order' (the storefront's checkout) and Refresh. */
function NoOrders({ onRefresh }: { onRefresh: () => void }) {
  const t = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', p: 4 }} data-testid="orders-empty">
      <Typography variant="h6" gutterBottom>
        {t('shop.admin.orders.empty')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center' }}>
        <Button variant="contained" href={`${storefrontUrl}/checkout`}>
          {t('shop.admin.orders.createOrder')}
        </Button>
        <RefreshButton onClick={onRefresh} />
      </Box>
    </Box>
  );
}

export function OrderList() {
  const t = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const lang = locale === 'am' ? 'am' : 'en';
  // a failed load after the Refresh button says 'Failed to refresh orders', any other 'Failed to fetch orders.'
  const refreshing = useRef(false);
  const onRefresh = () => {
    refreshing.current = true;
  };
  const onLoaded = () => {
    refreshing.current = false;
  };
  const onLoadFailed = () => {
    notify(refreshing.current ? 'shop.admin.orders.refreshFailed' : 'shop.admin.orders.listFailed', {
      type: 'error',
    });
    refreshing.current = false;
  };
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={t('shop.admin.orders.search')} />,
    <SelectInput
      key="status"
      source="status"
      label="shop.admin.orders.statusLabel"
      alwaysOn
      emptyText="shop.admin.orders.allStatuses"
      choices={ORDER_STATUSES.map((s) => ({ id: s, name: t(`shop.admin.orders.status.${s}`) }))}
    />,
  ];
  return (
    <List
      title={t('shop.admin.orders.title')}
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      actions={<OrderActions onRefresh={onRefresh} />}
      empty={<NoOrders onRefresh={onRefresh} />}
      queryOptions={{ onError: onLoadFailed, onSuccess: onLoaded }}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <FunctionField
          label="shop.admin.orders.id"
          sortBy="_id"
          render={(o: OrderRecord) => <code>#{shortId(o.id)}</code>}
        />
        <FunctionField
          label="shop.admin.orders.customer"
          render={(o: OrderRecord) => customerOf(o).email ?? ''}
        />
        <ShopDateField source="createdAt" label="shop.admin.orders.date" sortBy="createdAt" />
        <FunctionField
          label="shop.admin.orders.total"
          sortBy="totalAmount"
          render={(o: OrderRecord) => formatMoney(o.totalAmount, 'ETB', lang)}
        />
        <FunctionField
          label="shop.admin.orders.statusLabel"
          sortBy="status"
          render={(o: OrderRecord) => <StatusBadge status={o.status} />}
        />
        <FunctionField
          label="shop.admin.common.actions"
          render={(o: OrderRecord) => (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <Button
                size="small"
                component={Link}
                to={`/admin/orders/${o.id}`}
                startIcon={<VisibilityIcon />}
              >
                {t('shop.admin.orders.details')}
              </Button>
              <StatusSelect id={String(o.id)} status={o.status} />
            </Box>
          )}
        />
      </Datagrid>
    </List>
  );
}
