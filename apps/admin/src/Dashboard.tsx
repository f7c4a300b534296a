import { Card, CardContent, CardHeader, List, ListItem, ListItemText, Typography } from '@mui/material';
import { createApiClient, type Product } from '@shop/api-client';
import { LOW_STOCK_THRESHOLD, MAX_PAGE_SIZE } from '@shop/shared';
import { useEffect, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { apiUrl } from './config';

interface State {
  engine?: string;
  totalProducts?: number;
  lowStock: Product[];
  failed: boolean;
}

/** First dashboard: API health and catalogue figures read through the typed client. */
export function Dashboard() {
  const t = useTranslate();
  const [state, setState] = useState<State>({ lowStock: [], failed: false });

  useEffect(() => {
    const api = createApiClient({ baseUrl: apiUrl });
    Promise.all([
      api.GET('/api/health'),
      api.GET('/api/products', { params: { query: { limit: MAX_PAGE_SIZE, sort: 'newest' } } }),
    ])
      .then(([health, products]) => {
        if (!health.data || !products.data) throw new Error('API error');
        setState({
          engine: health.data.database.engine,
          totalProducts: products.data.totalProducts,
          lowStock: products.data.products.filter((p) => p.stock <= LOW_STOCK_THRESHOLD),
          failed: false,
        });
      })
      .catch(() => setState((s) => ({ ...s, failed: true })));
  }, []);

  return (
    <div style={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', marginTop: 16 }}>
      <Title title={t('shop.admin.dashboard')} />
      {state.failed && <Typography color="error">{t('shop.errors.fetchDashboard')}</Typography>}
      <Card>
        <CardHeader title={t('shop.admin.apiStatus')} />
        <CardContent>
          <Typography>{t('shop.admin.engine')}: <strong data-testid="engine">{state.engine ?? '…'}</strong></Typography>
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('shop.admin.totalProducts')} />
        <CardContent>
          <Typography variant="h4" data-testid="total-products">{state.totalProducts ?? '…'}</Typography>
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('shop.admin.lowStock')} />
        <CardContent>
          {state.lowStock.length === 0 ? (
            <Typography>{t('shop.admin.noLowStock')}</Typography>
          ) : (
            <List dense>
              {state.lowStock.map((p) => (
                <ListItem key={p._id}>
                  <ListItemText primary={p.name} secondary={t('shop.admin.stock', { count: p.stock })} />
                </ListItem>
              ))}
            </List>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
