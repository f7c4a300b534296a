import type { components } from '@shop/api-client';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, Chip, Typography } from '@mui/material';
import { CATEGORY_SLUGS } from '@shop/shared';
import { useState } from 'react';
import {
  Datagrid,
  DeleteWithConfirmButton,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  SimpleList,
  TopToolbar,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
  useUnselectAll,
  type RaRecord,
} from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { imageSrc } from '../config';
import { useFormat } from '../format';
import { useIsPhone } from '../layout/useIsPhone';
import { adminApi } from '../shopApi';
import { stockState } from './gallery';
import { ProductFormDialog } from './ProductForm';

/** A record as GET /api/admin/products answers it (generated from openapi.yaml). */
type ProductRecord = RaRecord & components['schemas']['ProductDto'];

const STOCK_CHIP = {
  out: { color: 'error', key: 'shop.admin.products.stockStates.out' },
  low: { color: 'warning', key: 'shop.admin.products.stockStates.low' },
  in: { color: 'success', key: 'shop.admin.products.stockStates.in' },
} as const;

/** The stock count with its state: out of stock (red), low (amber) or in stock. */
function StockChip({ stock }: { stock: number }) {
  const t = useTranslate();
  const state = stockState(stock);
  const chip = STOCK_CHIP[state];
  return (
    <Chip
      size="small"
      variant={state === 'in' ? 'outlined' : 'filled'}
      color={chip.color}
      data-testid="stock-chip"
      data-state={state}
      label={`${stock} · ${t(chip.key)}`}
    />
  );
}

/** The stock of a product: with variants, how many there are and the sum of their stock. */
function ProductStock({ product }: { product: ProductRecord }) {
  const t = useTranslate();
  const count = product.variants?.length ?? 0;
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
      {count > 0 && (
        <Chip
          size="small"
          variant="outlined"
          data-testid="variant-count"
          label={t('shop.admin.products.variants.count', { smart_count: count })}
        />
      )}
      <StockChip stock={product.stock} />
    </Box>
  );
}

/** Put the selected products on sale or withdraw them, in one call (audited per product by the API). */
function BulkActiveButtons() {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const { selectedIds } = useListContext();
  const unselectAll = useUnselectAll('products');
  const [busy, setBusy] = useState(false);
  const apply = async (active: boolean) => {
    setBusy(true);
    try {
      const { updated } = await adminApi.setProductsActive(selectedIds.map(String), active);
      notify('shop.admin.products.bulkDone', { type: 'success', messageArgs: { smart_count: updated } });
      unselectAll();
      refresh();
    } catch (error) {
      notifyError(error, 'shop.admin.products.bulkFailed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" disabled={busy} onClick={() => apply(true)}>
        {t('shop.admin.products.activate')}
      </Button>
      <Button size="small" color="error" disabled={busy} onClick={() => apply(false)}>
        {t('shop.admin.products.deactivate')}
      </Button>
    </>
  );
}

export function ProductList() {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const { money, lang } = useFormat();
  const phone = useIsPhone();
  const [editing, setEditing] = useState<RaRecord | 'new' | null>(null);
  const nameOf = (p: ProductRecord) => (lang === 'am' && p.nameAm ? p.nameAm : p.name);
  // deleting withdraws a product (soft delete): the list shows products on sale unless asked for withdrawn ones
  const filters = [
    <SearchInput key="q" source="q" alwaysOn />,
    <SelectInput
      key="active"
      source="active"
      label="shop.admin.products.availability"
      alwaysOn
      emptyText="shop.admin.products.allProducts"
      choices={[
        { id: 'true', name: t('shop.admin.products.onSale') },
        { id: 'false', name: t('shop.admin.products.withdrawn') },
      ]}
    />,
    <SelectInput
      key="category"
      source="category"
      label="shop.admin.products.category"
      alwaysOn
      emptyText="shop.admin.products.allCategories"
      choices={CATEGORY_SLUGS.map((c) => ({ id: c, name: t(`shop.admin.products.categories.${c}`) }))}
    />,
    <SelectInput
      key="stockState"
      source="stockState"
      label="shop.admin.products.stockState"
      alwaysOn
      emptyText="shop.admin.products.allStock"
      choices={(['out', 'low', 'in'] as const).map((s) => ({
        id: s,
        name: t(`shop.admin.products.stockStates.${s}`),
      }))}
    />,
  ];

  const thumb = (p: ProductRecord, size: number) =>
    p.images?.[0] ? (
      <img
        src={imageSrc(p.images[0])}
        alt={nameOf(p)}
        style={{ width: size, height: size, objectFit: 'cover', borderRadius: 4 }}
      />
    ) : null;

  return (
    <>
      <List
        title={t('shop.admin.products.title')}
        filters={filters}
        filterDefaultValues={{ active: 'true' }}
        sort={{ field: 'createdAt', order: 'DESC' }}
        actions={
          <TopToolbar>
            <Button startIcon={<AddIcon />} variant="contained" onClick={() => setEditing('new')}>
              {t('shop.admin.products.add')}
            </Button>
          </TopToolbar>
        }
      >
        {phone ? (
          <SimpleList<ProductRecord>
            linkType={false}
            rowClick={(_id, _resource, p) => {
              setEditing(p);
              return false;
            }}
            leftAvatar={(p) => thumb(p, 40)}
            primaryText={(p) => nameOf(p)}
            secondaryText={(p) => (
              <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <span>{money(p.price)}</span>
                <ProductStock product={p} />
                {p.active === false && <Chip size="small" label={t('shop.admin.products.withdrawn')} />}
              </Box>
            )}
          />
        ) : (
          <Datagrid bulkActionButtons={<BulkActiveButtons />} rowClick={false}>
            <FunctionField label="shop.admin.products.image" render={(p: ProductRecord) => thumb(p, 48)} />
            <FunctionField
              label="shop.admin.products.name"
              sortBy="name"
              render={(p: ProductRecord) => (
                <Box>
                  <Typography variant="body2" sx={{ fontWeight: 700 }}>
                    {nameOf(p)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {[p.brand, p.category ? t(`shop.admin.products.categories.${p.category}`) : '']
                      .filter(Boolean)
                      .join(' · ')}
                  </Typography>
                  {p.active === false && (
                    <Chip size="small" sx={{ ml: 1 }} label={t('shop.admin.products.withdrawn')} />
                  )}
                </Box>
              )}
            />
            <FunctionField
              label="shop.admin.products.price"
              sortBy="price"
              render={(p: ProductRecord) => money(p.price)}
            />
            <FunctionField
              label="shop.admin.products.stock"
              sortBy="stock"
              render={(p: ProductRecord) => <ProductStock product={p} />}
            />
            <FunctionField
              label="shop.admin.common.actions"
              render={(p: ProductRecord) => (
                <Box sx={{ display: 'flex', gap: 1 }}>
                  <Button size="small" startIcon={<EditIcon />} onClick={() => setEditing(p)}>
                    {t('ra.action.edit')}
                  </Button>
                  {p.active !== false && (
                    <DeleteWithConfirmButton
                      record={p}
                      redirect={false}
                      mutationMode="pessimistic"
                      confirmTitle={t('shop.admin.products.deleteTitle', { name: nameOf(p) })}
                      confirmContent={t('shop.admin.products.deleteConfirm')}
                      mutationOptions={{
                        onSuccess: () => {
                          notify('shop.admin.products.deleted', { type: 'success' });
                          refresh();
                        },
                        onError: (error: unknown) => notifyError(error, 'shop.admin.products.deleteFailed'),
                      }}
                    />
                  )}
                </Box>
              )}
            />
          </Datagrid>
        )}
      </List>
      {editing && <ProductFormDialog record={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
