import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, Button, Typography } from '@mui/material';
import { ORDER_STATUSES, PAYMENT_METHODS, PAYMENT_STATUSES, SHIPPING_METHODS } from '@shop/shared';
import {
  Datagrid,
  DateInput,
  FilterButton,
  FunctionField,
  List,
  RefreshButton,
  SearchInput,
  SelectInput,
  SimpleList,
  TopToolbar,
  useListContext,
  useTranslate,
} from 'react-admin';
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useNotifyApiError } from '../apiErrors';
import { storefrontUrl } from '../config';
import { useFormat } from '../format';
import { useIsPhone } from '../layout/useIsPhone';
import { GuestBadge } from './GuestBadge';
import {
  customerOf,
  isGuestOrder,
  orderLabel,
  orderPhone,
  personLabel,
  type OrderRecord,
} from './orderFields';
import { PaymentBadge, PaymentMethodChip } from './PaymentBadge';
import { paymentMethodKey } from './payment';
import { StatusBadge } from './StatusBadge';
import { StatusSelect } from './StatusSelect';
import { ExportCsvButton } from '../reports/ExportCsvButton';

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
      <FilterButton />
      <RefreshButton onClick={onRefresh} />
      <ExportCsvButton resource="orders" />
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

/** The orders staff ship from: number, customer and phone, total, payment state and status, with filters for each. */
export function OrderList() {
  const t = useTranslate();
  const notifyError = useNotifyApiError();
  const navigate = useNavigate();
  const { money, dateTime } = useFormat();
  const phone = useIsPhone();
  // a failed load after the Refresh button says 'Failed to refresh orders', any other 'Failed to fetch orders.'
  const refreshing = useRef(false);
  const onRefresh = () => {
    refreshing.current = true;
  };
  const onLoaded = () => {
    refreshing.current = false;
  };
  const onLoadFailed = (error: unknown) => {
    notifyError(
      error,
      refreshing.current ? 'shop.admin.orders.refreshFailed' : 'shop.admin.orders.listFailed',
    );
    refreshing.current = false;
  };
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={t('shop.admin.orders.search')} />,
    <SelectInput
      key="paymentStatus"
      source="paymentStatus"
      label="shop.admin.orders.paymentStatus"
      alwaysOn
      emptyText="shop.admin.orders.allPayments"
      choices={PAYMENT_STATUSES.map((s) => ({ id: s, name: t(`shop.admin.orders.paymentStatuses.${s}`) }))}
    />,
    <SelectInput
      key="status"
      source="status"
      label="shop.admin.orders.statusLabel"
      alwaysOn
      emptyText="shop.admin.orders.allStatuses"
      choices={ORDER_STATUSES.map((s) => ({ id: s, name: t(`shop.admin.orders.status.${s}`) }))}
    />,
    <SelectInput
      key="paymentMethod"
      source="paymentMethod"
      label="shop.admin.orders.paymentMethod"
      emptyText="shop.admin.orders.allPaymentMethods"
      choices={PAYMENT_METHODS.map((m) => ({ id: m, name: t(paymentMethodKey(m)) }))}
    />,
    <SelectInput
      key="shippingMethod"
      source="shippingMethod"
      label="shop.admin.orders.shippingMethod"
      emptyText="shop.admin.orders.allShipping"
      choices={SHIPPING_METHODS.map((s) => ({ id: s, name: t(`shop.admin.orders.shippingMethods.${s}`) }))}
    />,
    <DateInput key="createdFrom" source="createdFrom" label="shop.admin.orders.from" />,
    <DateInput key="createdTo" source="createdTo" label="shop.admin.orders.to" />,
  ];
  return (
    <List
      title={t('shop.admin.orders.title')}
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      actions={<OrderActions onRefresh={onRefresh} />}
      exporter={false}
      empty={<NoOrders onRefresh={onRefresh} />}
      queryOptions={{ onError: onLoadFailed, onSuccess: onLoaded }}
    >
      {phone ? (
        <SimpleList<OrderRecord>
          linkType={false}
          rowClick={(id) => {
            navigate(`/admin/orders/${id}`);
            return false;
          }}
          primaryText={(o) => (
            <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <strong data-testid="order-number">{orderLabel(o)}</strong>
              <StatusBadge status={o.status} />
              <PaymentBadge status={o.paymentStatus} />
              <PaymentMethodChip method={o.paymentMethod} />
              {isGuestOrder(o) && <GuestBadge />}
            </Box>
          )}
          secondaryText={(o) =>
            [personLabel(customerOf(o)), orderPhone(o), dateTime(o.createdAt)].filter(Boolean).join(' · ')
          }
          tertiaryText={(o) => money(o.totalAmount)}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <FunctionField
            label="shop.admin.orders.id"
            sortBy="createdAt"
            render={(o: OrderRecord) => (
              <Box>
                <Typography variant="body2" sx={{ fontWeight: 700 }} data-testid="order-number">
                  {orderLabel(o)}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {dateTime(o.createdAt)}
                </Typography>
              </Box>
            )}
          />
          <FunctionField
            label="shop.admin.orders.customer"
            sortBy="customer.name"
            render={(o: OrderRecord) => {
              const c = customerOf(o);
              const label = personLabel(c);
              // the second line: the email under a name (a phone-only customer's phone is in its own column)
              const second = c.email && c.email !== label ? c.email : undefined;
              return (
                <Box>
                  <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                    <Typography variant="body2" data-testid="order-customer">
                      {label || '—'}
                    </Typography>
                    {isGuestOrder(o) && <GuestBadge />}
                  </Box>
                  {second && (
                    <Typography variant="caption" color="text.secondary">
                      {second}
                    </Typography>
                  )}
                </Box>
              );
            }}
          />
          <FunctionField
            label="shop.admin.orders.phone"
            render={(o: OrderRecord) => {
              const phone = orderPhone(o);
              return phone ? (
                <a href={`tel:${phone}`} data-testid="order-phone">
                  {phone}
                </a>
              ) : (
                '—'
              );
            }}
          />
          <FunctionField
            label="shop.admin.orders.total"
            sortBy="totalAmount"
            render={(o: OrderRecord) => money(o.totalAmount)}
          />
          <FunctionField
            label="shop.admin.orders.paymentStatus"
            sortBy="paymentStatus"
            render={(o: OrderRecord) => (
              <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
                <PaymentBadge status={o.paymentStatus} />
                <PaymentMethodChip method={o.paymentMethod} />
              </Box>
            )}
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
                <StatusSelect
                  id={String(o.id)}
                  status={o.status}
                  paymentStatus={o.paymentStatus}
                  paymentMethod={o.paymentMethod}
                />
              </Box>
            )}
          />
        </Datagrid>
      )}
    </List>
  );
}
