import { useMediaQuery, type Theme } from '@mui/material';
import type { components } from '@shop/api-client';
import {
  BooleanField,
  CreateButton,
  Datagrid,
  DeleteWithConfirmButton,
  EditButton,
  FunctionField,
  List,
  SearchInput,
  TextField,
  TopToolbar,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { useFormat } from '../format';
import { ShopDateField } from '../ShopDateField';
import { couponValueText } from './couponFields';

/** A coupon as GET /api/admin/coupons answers it (generated from openapi.yaml). */
type CouponRecord = RaRecord & components['schemas']['CouponDto'];

/** Coupon codes with their uses; deactivate keeps the code for the orders that carry it. */
export function CouponList() {
  const t = useTranslate();
  const { money } = useFormat();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  // a 390 px phone: the code, its value and uses, and the actions (the dates and the switch on its page)
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <List
      title={t('shop.admin.coupons.title')}
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      sort={{ field: 'createdAt', order: 'DESC' }}
      actions={
        <TopToolbar>
          <CreateButton />
        </TopToolbar>
      }
    >
      <Datagrid bulkActionButtons={false} rowClick="edit">
        <TextField source="code" label="shop.admin.coupons.code" />
        <FunctionField
          label="shop.admin.coupons.value"
          render={(r: CouponRecord) =>
            couponValueText(r, t('shop.admin.coupons.freeShipping'), (amount) => money(amount))
          }
        />
        <FunctionField
          label="shop.admin.coupons.uses"
          sortBy="uses"
          render={(r: CouponRecord) => (r.usageLimit ? `${r.uses} / ${r.usageLimit}` : String(r.uses))}
        />
        {phone ? null : <ShopDateField source="endsAt" label="shop.admin.coupons.endsAt" sortBy="endsAt" />}
        {phone ? null : <BooleanField source="active" label="shop.admin.coupons.active" />}
        <FunctionField
          label="shop.admin.common.actions"
          render={(r: CouponRecord) => (
            <>
              <EditButton record={r} />
              {r.active ? (
                <DeleteWithConfirmButton
                  record={r}
                  redirect={false}
                  mutationMode="pessimistic"
                  label="shop.admin.coupons.deactivate"
                  confirmTitle={t('shop.admin.coupons.deactivateTitle', { code: r.code })}
                  confirmContent={t('shop.admin.coupons.deactivateConfirm')}
                  mutationOptions={{
                    onSuccess: () => {
                      notify('shop.admin.coupons.deactivated', { type: 'success' });
                      refresh();
                    },
                    onError: (error: unknown) => notifyError(error, 'shop.admin.coupons.saveFailed'),
                  }}
                />
              ) : null}
            </>
          )}
        />
      </Datagrid>
    </List>
  );
}
