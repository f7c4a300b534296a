import { Rating } from '@mui/material';
import {
  Datagrid,
  DeleteWithConfirmButton,
  FunctionField,
  List,
  SearchInput,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { ShopDateField } from '../ShopDateField';

interface ReviewRecord extends RaRecord {
  user?: { name?: string } | string;
  userName?: string;
  product?: { name?: string } | string;
  productName?: string;
  rating: number;
  comment?: string;
  text?: string;
  verified?: boolean;
  createdAt: string;
}

const nameOf = (v: { name?: string } | string | undefined, fallback?: string) =>
  fallback ?? (typeof v === 'object' ? v?.name : v) ?? '';

/** Moderation: read every review and delete the ones that break the rules. */
export function ReviewList() {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  return (
    <List
      title={t('shop.admin.reviews.title')}
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      sort={{ field: 'createdAt', order: 'DESC' }}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <FunctionField
          label="shop.admin.reviews.product"
          render={(r: ReviewRecord) => nameOf(r.product, r.productName)}
        />
        <FunctionField
          label="shop.admin.reviews.author"
          render={(r: ReviewRecord) => nameOf(r.user, r.userName)}
        />
        <FunctionField
          label="shop.admin.reviews.rating"
          sortBy="rating"
          render={(r: ReviewRecord) => <Rating value={r.rating} readOnly size="small" />}
        />
        <FunctionField
          label="shop.admin.reviews.comment"
          render={(r: ReviewRecord) => r.comment ?? r.text ?? ''}
        />
        <FunctionField
          label="shop.admin.reviews.verified"
          render={(r: ReviewRecord) => (r.verified ? t('ra.boolean.true') : t('ra.boolean.false'))}
        />
        <ShopDateField source="createdAt" label="shop.admin.reviews.date" sortBy="createdAt" />
        <FunctionField
          label="shop.admin.common.actions"
          render={(r: ReviewRecord) => (
            <DeleteWithConfirmButton
              record={r}
              redirect={false}
              mutationMode="pessimistic"
              confirmTitle={t('shop.admin.reviews.deleteTitle')}
              confirmContent={t('shop.admin.reviews.deleteConfirm')}
              mutationOptions={{
                onSuccess: () => {
                  notify('shop.admin.reviews.deleted', { type: 'success' });
                  refresh();
                },
                onError: (error: unknown) => notifyError(error, 'shop.admin.reviews.deleteFailed'),
              }}
            />
          )}
        />
      </Datagrid>
    </List>
  );
}
