import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, Chip, Typography } from '@mui/material';
import { formatMoney } from '@shop/shared';
import { useState } from 'react';
import {
  Datagrid,
  DeleteWithConfirmButton,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  TopToolbar,
  useLocaleState,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ProductFormDialog } from './ProductForm';

interface ProductRecord extends RaRecord {
  name: string;
  brand?: string;
  price: number;
  stock: number;
  images?: string[];
  active?: boolean;
}

export function ProductList() {
  const t = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [locale] = useLocaleState();
  const [editing, setEditing] = useState<RaRecord | 'new' | null>(null);
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
  ];

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
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <FunctionField
            label="shop.admin.products.image"
            render={(p: ProductRecord) =>
              p.images?.[0] ? (
                <img
                  src={p.images[0]}
                  alt={p.name}
                  style={{ width: 48, height: 48, objectFit: 'cover', borderRadius: 4 }}
                />
              ) : null
            }
          />
          <FunctionField
            label="shop.admin.products.name"
            sortBy="name"
            render={(p: ProductRecord) => (
              <Box>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {p.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {p.brand}
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
            render={(p: ProductRecord) => formatMoney(p.price, 'ETB', locale === 'am' ? 'am' : 'en')}
          />
          <NumberField source="stock" label="shop.admin.products.stock" />
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
                    confirmTitle={t('shop.admin.products.deleteTitle', { name: p.name })}
                    confirmContent={t('shop.admin.products.deleteConfirm')}
                    mutationOptions={{
                      onSuccess: () => {
                        notify('shop.admin.products.deleted', { type: 'success' });
                        refresh();
                      },
                      onError: () => notify('shop.admin.products.deleteFailed', { type: 'error' }),
                    }}
                  />
                )}
              </Box>
            )}
          />
        </Datagrid>
      </List>
      {editing && <ProductFormDialog record={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
