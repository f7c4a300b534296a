import {
  Avatar,
  Box,
  Card,
  CardContent,
  CardHeader,
  List,
  ListItem,
  ListItemAvatar,
  ListItemText,
  Typography,
} from '@mui/material';
import { type Currency } from '@shop/shared';
import { useEffect, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { useFormat } from '../format';
import { LightTitle } from '../layout/LightTitle';
import { orderLabel } from '../orders/orderFields';
import { adminApi, type DashboardStats } from '../shopApi';
import { activityColor } from './chartScale';
import { SalesBreakdown } from './SalesBreakdown';
import { SalesChart } from './SalesChart';

function StatCard({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Card>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h5" data-testid={testId}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

export function Dashboard() {
  const t = useTranslate();
  const [locale] = useLocaleState();
  // a product named in the page's language: the Amharic name where it has one
  const named = (p?: { name?: string; nameAm?: string }) => (locale === 'am' && p?.nameAm) || p?.name;
  const format = useFormat();
  const [stats, setStats] = useState<DashboardStats>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    adminApi.stats().then(setStats, () => setFailed(true));
  }, []);

  const money = (n: number) => format.money(n, (stats?.currency ?? 'ETB') as Currency);
  // an order's latest status change; before any, the recent orders themselves
  const activity = stats?.recentActivity?.length
    ? stats.recentActivity.map((a) => ({ ...a, customer: a.customerName }))
    : (stats?.recentOrders ?? []).map((o) => ({
        orderId: o._id,
        orderNumber: o.orderNumber,
        status: o.status,
        customer: o.customer?.name,
        at: o.createdAt,
      }));

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
      <LightTitle title={t('shop.admin.dashboard.title')} />
      {failed && (
        <Typography color="error" role="alert">
          {t('shop.admin.dashboard.failed')}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))' }}>
        <StatCard
          testId="total-orders"
          label={t('shop.admin.dashboard.totalOrders')}
          value={stats?.totalOrders ?? '…'}
        />
        <StatCard
          testId="total-revenue"
          label={t('shop.admin.dashboard.totalRevenue')}
          value={stats ? money(stats.totalRevenue) : '…'}
        />
        <StatCard
          testId="items-sold"
          label={t('shop.admin.dashboard.itemsSold')}
          value={stats?.itemsSold ?? '…'}
        />
        <StatCard
          testId="total-users"
          label={t('shop.admin.dashboard.totalUsers')}
          value={stats?.totalUsers ?? '…'}
        />
        <StatCard
          testId="total-products"
          label={t('shop.admin.dashboard.totalProducts')}
          value={stats?.totalProducts ?? '…'}
        />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
        <Card>
          <CardHeader title={t('shop.admin.dashboard.sales')} />
          <CardContent>{stats && <SalesChart data={stats.salesData ?? []} />}</CardContent>
        </Card>
        <Card>
          <CardHeader title={t('shop.admin.dashboard.topSelling')} />
          <CardContent>
            {stats && !stats.topSellingProducts?.length && (
              <Typography color="text.secondary">{t('shop.admin.dashboard.noTopSelling')}</Typography>
            )}
            <List dense data-testid="top-selling">
              {stats?.topSellingProducts?.map((p) => (
                <ListItem key={p._id}>
                  <ListItemAvatar>
                    <Avatar>{named(p.productDetails)?.charAt(0).toUpperCase()}</Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={named(p.productDetails)}
                    secondary={t('shop.admin.dashboard.sold', { quantity: p.totalQuantity })}
                  />
                  <Typography variant="body2">{money(Number(p.productDetails?.price ?? 0))}</Typography>
                </ListItem>
              ))}
            </List>
          </CardContent>
        </Card>
      </Box>
      <SalesBreakdown />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <Card>
          <CardHeader title={t('shop.admin.dashboard.recentActivity')} />
          <CardContent>
            {stats && !activity.length && (
              <Typography color="text.secondary">{t('shop.admin.dashboard.noActivity')}</Typography>
            )}
            <List dense data-testid="recent-activity">
              {activity.map((a, i) => (
                <ListItem key={`${a.orderId}-${i}`}>
                  <Box
                    component="span"
                    data-status={a.status}
                    sx={{
                      width: 10,
                      height: 10,
                      borderRadius: '50%',
                      bgcolor: activityColor(a.status),
                      mr: 1.5,
                      flex: 'none',
                    }}
                  />
                  <ListItemText
                    primary={t('shop.admin.dashboard.orderActivity', {
                      id: orderLabel({ id: a.orderId, orderNumber: a.orderNumber }),
                      status: t(`shop.admin.orders.status.${a.status}`),
                    })}
                    secondary={[a.customer, format.dateTime(a.at)].filter(Boolean).join(' · ')}
                  />
                </ListItem>
              ))}
            </List>
          </CardContent>
        </Card>
        <Card>
          <CardHeader title={t('shop.admin.dashboard.lowStock')} />
          <CardContent>
            {stats && !stats.lowStockItems?.length && (
              <Typography color="text.secondary">{t('shop.admin.dashboard.noLowStock')}</Typography>
            )}
            <List dense data-testid="low-stock">
              {stats?.lowStockItems?.map((p) => (
                <ListItem key={p._id}>
                  <ListItemText
                    primary={named(p)}
                    secondary={t('shop.admin.dashboard.stock', { count: p.stock })}
                  />
                </ListItem>
              ))}
            </List>
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
}
