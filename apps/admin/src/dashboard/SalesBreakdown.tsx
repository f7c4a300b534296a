import { Box, Card, CardContent, CardHeader, Typography } from '@mui/material';
import { ApiError, type components } from '@shop/api-client';
import { regionName, zonedParts } from '@shop/shared';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useFormat } from '../format';
import { TextField } from '../layout/LightTextField';
import { shopClient } from '../shopApi';

type Breakdown = components['schemas']['SalesBreakdownDto'];

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` of an instant on the shop clock. */
function shopDay(instant: Date, zone: string): string {
  const p = zonedParts(instant, zone);
  return p ? `${p.year}-${p.month}-${p.day}` : instant.toISOString().slice(0, 10);
}

async function loadBreakdown(from: string, to: string): Promise<Breakdown> {
  const { data, error, response } = await shopClient().GET('/api/admin/dashboard/sales', {
    params: { query: { from, to } },
  });
  if (data === undefined || !response.ok) throw ApiError.from(error, response.status);
  return data;
}

/** One group's line: its name, orders, amount, and a bar in proportion to the largest group. */
function Row({ label, orders, total, max }: { label: string; orders: number; total: number; max: number }) {
  const t = useTranslate();
  const { money } = useFormat();
  return (
    <Box component="li" sx={{ listStyle: 'none', mb: 1.25 }} data-testid="sales-row">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {label}
        </Typography>
        <Typography variant="body2">
          {money(total)} · {t('shop.admin.reports.orders', { smart_count: orders })}
        </Typography>
      </Box>
      <Box
        aria-hidden
        sx={{
          height: 6,
          borderRadius: 3,
          bgcolor: 'primary.main',
          width: `${max ? Math.max(2, (total / max) * 100) : 0}%`,
        }}
      />
    </Box>
  );
}

/**
 * Sales by delivery region and by payment method over a chosen period of shop days (default the last
 * 30), net of refunds (GET /api/admin/dashboard/sales, docs/decisions/0081-replies-shop-clock-reports.md).
 */
export function SalesBreakdown() {
  const t = useTranslate();
  const { lang, zone } = useFormat();
  const [to, setTo] = useState(() => shopDay(new Date(), zone));
  const [from, setFrom] = useState(() => shopDay(new Date(Date.now() - 29 * DAY_MS), zone));
  const [data, setData] = useState<Breakdown>();
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    let current = true;
    if (!from || !to || from > to) {
      setInvalid(true);
      return;
    }
    loadBreakdown(from, to).then(
      (d) => {
        if (!current) return;
        setInvalid(false);
        setData(d);
      },
      () => current && setInvalid(true),
    );
    return () => {
      current = false;
    };
  }, [from, to]);
  const regions = data?.byRegion ?? [];
  const methods = data?.byPaymentMethod ?? [];
  const maxRegion = Math.max(0, ...regions.map((r) => r.total));
  const maxMethod = Math.max(0, ...methods.map((m) => m.total));
  return (
    <Card data-testid="sales-breakdown">
      <CardHeader title={t('shop.admin.reports.salesTitle')} />
      <CardContent>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
          <TextField
            type="date"
            size="small"
            name="from"
            label={t('shop.admin.reports.from')}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            fullWidth={false}
            shrinkLabel
            inputProps={{ 'data-testid': 'sales-from' }}
          />
          <TextField
            type="date"
            size="small"
            name="to"
            label={t('shop.admin.reports.to')}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            fullWidth={false}
            shrinkLabel
            inputProps={{ 'data-testid': 'sales-to' }}
          />
        </Box>
        {invalid && (
          <Typography color="error" variant="body2" role="alert">
            {t('shop.admin.reports.periodInvalid')}
          </Typography>
        )}
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <Box component="section" aria-label={t('shop.admin.reports.byRegion')}>
            <Typography variant="subtitle2" gutterBottom>
              {t('shop.admin.reports.byRegion')}
            </Typography>
            {data && !regions.length && (
              <Typography color="text.secondary" variant="body2">
                {t('shop.admin.reports.noSales')}
              </Typography>
            )}
            <Box component="ul" sx={{ p: 0, m: 0 }} data-testid="sales-by-region">
              {regions.map((r) => (
                <Row
                  key={r.region || '-'}
                  label={r.region ? regionName(r.region, lang) : t('shop.admin.reports.unknownRegion')}
                  orders={r.orders}
                  total={r.total}
                  max={maxRegion}
                />
              ))}
            </Box>
          </Box>
          <Box component="section" aria-label={t('shop.admin.reports.byPaymentMethod')}>
            <Typography variant="subtitle2" gutterBottom>
              {t('shop.admin.reports.byPaymentMethod')}
            </Typography>
            {data && !methods.length && (
              <Typography color="text.secondary" variant="body2">
                {t('shop.admin.reports.noSales')}
              </Typography>
            )}
            <Box component="ul" sx={{ p: 0, m: 0 }} data-testid="sales-by-method">
              {methods.map((m) => (
                <Row
                  key={m.paymentMethod}
                  label={t(`shop.admin.orders.paymentMethods.${m.paymentMethod}`)}
                  orders={m.orders}
                  total={m.total}
                  max={maxMethod}
                />
              ))}
            </Box>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
