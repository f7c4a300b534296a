import type { components } from '@shop/api-client';
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

/** A review as GET /api/admin/reviews answers it (generated from openapi.yaml). */
type ReviewRecord = RaRecord & components['schemas']['ReviewRecordDto'];

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
          render={(r: ReviewRecord) => r.product?.name ?? ''}
        />
        <FunctionField label="shop.admin.reviews.author" render={(r: ReviewRecord) => r.user?.name ?? ''} />
        <FunctionField
          label="shop.admin.reviews.rating"
          sortBy="rating"
          render={(r: ReviewRecord) => <Rating value={r.rating} readOnly size="small" />}
        />
        <FunctionField label="shop.admin.reviews.comment" render={(r: ReviewRecord) => r.comment} />
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
