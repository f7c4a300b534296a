import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PrintIcon from '@mui/icons-material/Print';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  GlobalStyles,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import {
  canFulfil,
  FULFILMENT_STATUSES,
  lineTotalBirr,
  nextStatuses,
  ORDER_TRANSITIONS,
  regionName,
  type OrderStatus,
} from '@shop/shared';
import { useState } from 'react';
import { Loading, Title, useGetOne, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { imageSrc } from '../config';
import { useFormat } from '../format';
import {
  addressLines,
  customerOf,
  lineImage,
  lineName,
  isGuestOrder,
  linesOf,
  orderLabel,
  orderPhone,
  personLabel,
  type OrderRecord,
} from './orderFields';
import { GuestBadge } from './GuestBadge';
import { lineVariantText } from './lineVariant';
import { PackingSlip, PRINT_STYLES } from './PackingSlip';
import { PaymentBadge, PaymentMethodChip } from './PaymentBadge';
import { paymentMethodKey, slipPayment, slipPaymentText } from './payment';
import { NotesPanel, type OrderNote } from './NotesPanel';
import { RecordCollected } from './RecordCollected';
import { RefundDialog } from './RefundDialog';
import { StatusBadge } from './StatusBadge';
import { StatusSelect } from './StatusSelect';

/** /admin/orders/{id}: everything a packer and a rider need, the status history, and a printable packing slip. */
export function OrderShow() {
  const t = useTranslate();
  const { id = '' } = useParams();
  const { lang, money, dateTime } = useFormat();
  const { data: order, isPending, error, refetch } = useGetOne<OrderRecord>('orders', { id });
  const [tracking, setTracking] = useState('');

  if (isPending) return <Loading />;
  if (error || !order)
    return (
      <Typography color="error" role="alert" sx={{ m: 2 }}>
        {t('shop.admin.orders.fetchFailed')}
      </Typography>
    );

  const customer = customerOf(order);
  const lines = linesOf(order);
  const address = order.shippingAddress ?? {};
  const phone = orderPhone(order);
  const method = order.shippingMethod ? t(`shop.admin.orders.shippingMethods.${order.shippingMethod}`) : '—';
  // staff-only parts of GET /api/admin/orders/{id}
  const staff = order as OrderRecord & {
    notes?: OrderNote[];
    refunds?: {
      _id: string;
      amount: number;
      reason: string;
      method: string;
      reference?: string;
      byName?: string;
      at: string;
    }[];
    refunded?: number;
  };
  const payment = {
    status: order.status,
    paymentStatus: order.paymentStatus,
    paymentMethod: order.paymentMethod,
  };
  const next = nextStatuses(payment);
  // a move the machine has but the payment withholds (the API's ORDER_NOT_PAID)
  const withheld = (ORDER_TRANSITIONS[order.status as OrderStatus] ?? []).some(
    (s) => FULFILMENT_STATUSES.includes(s) && !canFulfil(payment),
  );

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2 }} data-testid="order-details">
      <GlobalStyles styles={PRINT_STYLES} />
      <Title title={t('shop.admin.orders.detailsTitle', { id: orderLabel(order) })} />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }} className="no-print">
        <Button component={Link} to="/admin/orders" startIcon={<ArrowBackIcon />} variant="outlined">
          {t('shop.admin.orders.back')}
        </Button>
        <Typography variant="h6" component="h2" data-testid="order-number">
          {orderLabel(order)}
        </Typography>
        <StatusBadge status={order.status} />
        <PaymentBadge status={order.paymentStatus} />
        <PaymentMethodChip method={order.paymentMethod} />
        {isGuestOrder(order) && <GuestBadge />}
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
          paymentStatus={order.paymentStatus}
          paymentMethod={order.paymentMethod}
          trackingNumber={tracking}
          onChanged={() => refetch()}
        />
        <RecordCollected id={String(order.id)} order={order} onChanged={() => refetch()} />
        <RefundDialog id={String(order.id)} order={staff} onChanged={() => refetch()} />
        <Button
          variant="contained"
          startIcon={<PrintIcon />}
          onClick={() => window.print()}
          data-testid="print-slip"
        >
          {t('shop.admin.orders.printSlip')}
        </Button>
      </Box>
      <Box className="no-print" data-testid="next-steps">
        <Typography>
          {next.length
            ? t('shop.admin.orders.nextSteps', {
                steps: next
                  .map((s) => t(`shop.admin.orders.status.${s}`))
                  .join(t('shop.admin.orders.listSeparator')),
              })
            : t('shop.admin.orders.noNextSteps')}
        </Typography>
        {withheld && (
          <Alert severity="warning" data-testid="not-paid-hint" sx={{ mt: 1 }}>
            {t(
              order.paymentStatus === 'failed'
                ? 'shop.admin.orders.notPaidFailed'
                : order.paymentStatus === 'refunded'
                  ? 'shop.admin.orders.notPaidRefunded'
                  : 'shop.admin.orders.notPaidHint',
            )}
          </Alert>
        )}
      </Box>
      {order.paymentStatus === 'refund_pending' && (
        <Alert severity="warning" data-testid="refund-flag" variant="filled" sx={{ bgcolor: '#9c3452' }}>
          {t('shop.admin.orders.refundDue', {
            amount: money(order.totalAmount),
            reference: order.paymentReference ?? '—',
          })}
        </Alert>
      )}
      {slipPayment(order).kind === 'collect' && (
        <Alert severity="info" data-testid="collect-due">
          {slipPaymentText(order, t, money)}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        <Card>
          <CardHeader title={t('shop.admin.orders.customer')} />
          <CardContent>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography data-testid="order-customer">{personLabel(customer) || '—'}</Typography>
              {isGuestOrder(order) && <GuestBadge />}
            </Box>
            {customer.email && <Typography color="text.secondary">{customer.email}</Typography>}
            <Typography data-testid="order-phone">
              {t('shop.admin.orders.phone')}: {phone ? <a href={`tel:${phone}`}>{phone}</a> : '—'}
            </Typography>
            <Typography variant="body2">
              {t('shop.admin.orders.date')}: {dateTime(order.createdAt)}
            </Typography>
          </CardContent>
        </Card>
        <Card>
          <CardHeader title={t('shop.admin.orders.address')} />
          <CardContent data-testid="order-address">
            {addressLines(address, (r) => regionName(r, lang)).map((line) => (
              <Typography key={line}>{line}</Typography>
            ))}
            <Typography sx={{ mt: 1 }} data-testid="shipping-method">
              {t('shop.admin.orders.shippingMethod')}: <strong>{method}</strong>
            </Typography>
          </CardContent>
        </Card>
        <Card>
          <CardHeader title={t('shop.admin.orders.payment')} />
          <CardContent>
            <Typography data-testid="payment-status">
              {t('shop.admin.orders.paymentStatus')}:{' '}
              {order.paymentStatus ? t(`shop.admin.orders.paymentStatuses.${order.paymentStatus}`) : '—'}
            </Typography>
            <Typography data-testid="payment-method-text">
              {t('shop.admin.orders.paymentMethod')}:{' '}
              <strong>{t(paymentMethodKey(order.paymentMethod))}</strong>
            </Typography>
            <Typography data-testid="payment-reference">
              {t('shop.admin.orders.paymentReference')}: {order.paymentReference ?? '—'}
            </Typography>
            {order.paidAt && (
              <Typography variant="body2">
                {t('shop.admin.orders.paidAt')}: {dateTime(order.paidAt)}
              </Typography>
            )}
            <Typography data-testid="tracking-number">
              {t('shop.admin.orders.trackingNumber')}: {order.trackingNumber || '—'}
            </Typography>
            {staff.refunded ? (
              <Typography data-testid="refunded-total">
                {t('shop.admin.orders.refund.refundedTotal')}: <strong>{money(staff.refunded)}</strong>
              </Typography>
            ) : null}
            {(staff.refunds ?? []).length > 0 && (
              <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }} data-testid="refund-list">
                {(staff.refunds ?? []).map((r) => (
                  <li key={r._id}>
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {money(r.amount)} · {t(`shop.admin.orders.refund.methods.${r.method}`)}
                      {r.reference ? ` (${r.reference})` : ''} · {r.reason} · {r.byName ?? '—'} ·{' '}
                      {dateTime(r.at)}
                    </Typography>
                  </li>
                ))}
              </Box>
            )}
          </CardContent>
        </Card>
      </Box>
      <Card>
        <CardHeader title={t('shop.admin.orders.items')} />
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="order-items">
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
                const price = l.priceAtPurchase;
                const image = lineImage(l);
                const variant = lineVariantText(l, lang, t('shop.admin.orders.sku'));
                return (
                  <TableRow key={l._id ?? i}>
                    <TableCell>
                      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                        {image && (
                          <img
                            src={imageSrc(image)}
                            alt=""
                            data-testid="line-image"
                            style={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 4 }}
                          />
                        )}
                        <Box>
                          {lineName(l, lang)}
                          {variant && (
                            <Typography
                              variant="body2"
                              color="text.secondary"
                              data-testid="line-variant"
                              sx={{ overflowWrap: 'anywhere' }}
                            >
                              {variant}
                            </Typography>
                          )}
                        </Box>
                      </Box>
                    </TableCell>
                    <TableCell align="right">{l.quantity}</TableCell>
                    <TableCell align="right">{money(price)}</TableCell>
                    <TableCell align="right">{money(lineTotalBirr(price, l.quantity))}</TableCell>
                  </TableRow>
                );
              })}
              {(
                [
                  ['subtotal', order.subtotal],
                  // the coupon's discount (docs/decisions/0096-coupon-codes.md), shown as a negative amount
                  ...(order.couponCode && order.discount ? ([['discount', -order.discount]] as const) : []),
                  ['shipping', order.shippingCost],
                  ['tax', order.tax],
                ] as const
              ).map(([key, value]) => (
                <TableRow key={key}>
                  <TableCell colSpan={3} align="right">
                    {t(`shop.admin.orders.${key}`)}
                  </TableCell>
                  <TableCell align="right">{money(value)}</TableCell>
                </TableRow>
              ))}
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
        </Box>
      </Card>
      <Card>
        <CardHeader title={t('shop.admin.orders.history')} />
        <CardContent>
          {(order.statusHistory ?? []).length === 0 && <Typography color="text.secondary">—</Typography>}
          <Box component="ol" sx={{ m: 0, pl: 3 }} data-testid="status-history">
            {(order.statusHistory ?? []).map((h, i) => (
              <li key={i}>
                <strong>{t(`shop.admin.orders.status.${h.status}`)}</strong> · {dateTime(h.at)}
                {h.note ? ` · ${h.note}` : ''}
              </li>
            ))}
          </Box>
        </CardContent>
      </Card>
      <Box className="no-print">
        <NotesPanel id={String(order.id)} notes={staff.notes ?? []} onChanged={() => refetch()} />
      </Box>
      <PackingSlip order={order} />
    </Box>
  );
}
