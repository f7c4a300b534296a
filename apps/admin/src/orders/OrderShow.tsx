import {
  Box,
  Card,
  CardContent,
  CardHeader,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { formatMoney, lineTotalBirr } from '@shop/shared';
import { useState } from 'react';
import { Loading, Title, useGetOne, useLocaleState, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { customerOf, lineName, shortId, type OrderRecord } from './orderFields';
import { StatusBadge } from './StatusBadge';
import { StatusSelect } from './StatusSelect';

/** /admin/orders/{id}: items, address, payment status, tracking number and the status history. */
export function OrderShow() {
  const t = useTranslate();
  const { id = '' } = useParams();
  const [locale] = useLocaleState();
  const lang = locale === 'am' ? 'am' : 'en';
  const { data: order, isPending, error, refetch } = useGetOne<OrderRecord>('orders', { id });
  const [tracking, setTracking] = useState('');

  if (isPending) return <Loading />;
  if (error || !order)
    return (
      <Typography color="error" role="alert" sx={{ m: 2 }}>
        {t('shop.admin.orders.fetchFailed')}
      </Typography>
    );

  const money = (n?: number) => formatMoney(n ?? 0, 'ETB', lang);
  const date = (s?: string) => (s ? new Date(s).toLocaleString(lang === 'am' ? 'am-ET' : 'en-US') : '');
  const customer = customerOf(order);
  const lines = order.orderItems ?? order.items ?? [];
  const address = order.shippingAddress ?? {};

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2 }} data-testid="order-details">
      <Title title={t('shop.admin.orders.detailsTitle', { id: shortId(order.id) })} />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Link to="/admin/orders">{t('shop.admin.orders.back')}</Link>
        <Typography variant="h6">#{shortId(order.id)}</Typography>
        <StatusBadge status={order.status} />
        {order.status === 'processing' && (
          <TextField
            size="small"
            label={t('shop.admin.orders.trackingNumber')}
            value={tracking}
            onChange={(e) => setTracking(e.target.value)}
          />
        )}
        <StatusSelect
          id={String(order.id)}
          status={order.status}
          trackingNumber={tracking}
          onChanged={() => refetch()}
        />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        <Card>
          <CardHeader title={t('shop.admin.orders.customer')} />
          <CardContent>
            <Typography>{customer.name}</Typography>
            <Typography color="text.secondary">{customer.email}</Typography>
            <Typography variant="body2">
              {t('shop.admin.orders.date')}: {date(order.createdAt)}
            </Typography>
          </CardContent>
        </Card>
        <Card>
          <CardHeader title={t('shop.admin.orders.address')} />
          <CardContent data-testid="order-address">
            {[address.street, address.city, address.state, address.zipCode, address.country]
              .filter(Boolean)
              .map((line) => (
                <Typography key={line}>{line}</Typography>
              ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader title={t('shop.admin.orders.payment')} />
          <CardContent>
            <Typography data-testid="payment-status">
              {t('shop.admin.orders.paymentStatus')}:{' '}
              {order.paymentStatus ? t(`shop.admin.orders.paymentStatuses.${order.paymentStatus}`) : '—'}
            </Typography>
            <Typography>
              {t('shop.admin.orders.paymentMethod')}: {order.paymentMethod ?? '—'}
            </Typography>
            <Typography data-testid="tracking-number">
              {t('shop.admin.orders.trackingNumber')}: {order.trackingNumber || '—'}
            </Typography>
          </CardContent>
        </Card>
      </Box>
      <Card>
        <CardHeader title={t('shop.admin.orders.items')} />
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('shop.admin.orders.product')}</TableCell>
              <TableCell align="right">{t('shop.admin.orders.quantity')}</TableCell>
              <TableCell align="right">{t('shop.admin.orders.unitPrice')}</TableCell>
              <TableCell align="right">{t('shop.admin.orders.lineTotal')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((l, i) => {
              const price = l.priceAtPurchase ?? l.price ?? 0;
              return (
                <TableRow key={l._id ?? i}>
                  <TableCell>{lineName(l)}</TableCell>
                  <TableCell align="right">{l.quantity}</TableCell>
                  <TableCell align="right">{money(price)}</TableCell>
                  <TableCell align="right">{money(lineTotalBirr(price, l.quantity))}</TableCell>
                </TableRow>
              );
            })}
            <TableRow>
              <TableCell colSpan={3} align="right">
                {t('shop.admin.orders.subtotal')}
              </TableCell>
              <TableCell align="right">{money(order.subtotal)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell colSpan={3} align="right">
                {t('shop.admin.orders.shipping')}
              </TableCell>
              <TableCell align="right">{money(order.shippingCost)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell colSpan={3} align="right">
                {t('shop.admin.orders.tax')}
              </TableCell>
              <TableCell align="right">{money(order.tax)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell colSpan={3} align="right">
                <strong>{t('shop.admin.orders.total')}</strong>
              </TableCell>
              <TableCell align="right">
                <strong>{money(order.totalAmount)}</strong>
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </Card>
      <Card>
        <CardHeader title={t('shop.admin.orders.history')} />
        <CardContent>
          {(order.statusHistory ?? []).length === 0 && <Typography color="text.secondary">—</Typography>}
          <Box component="ol" sx={{ m: 0, pl: 3 }} data-testid="status-history">
            {(order.statusHistory ?? []).map((h, i) => (
              <li key={i}>
                <strong>{t(`shop.admin.orders.status.${h.status}`)}</strong> ·{' '}
                {date(h.at ?? h.changedAt ?? h.date ?? h.createdAt)}
                {h.note ? ` · ${h.note}` : ''}
              </li>
            ))}
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
