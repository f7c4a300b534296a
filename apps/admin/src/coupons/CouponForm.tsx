import {
  BooleanInput,
  Create,
  DateTimeInput,
  Edit,
  maxValue,
  minValue,
  NumberInput,
  regex,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useNotify,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useNotifyApiError } from '../apiErrors';
import { couponPayload } from './couponFields';

const KINDS = [
  { id: 'percent', name: 'shop.admin.coupons.kinds.percent' },
  { id: 'fixed', name: 'shop.admin.coupons.kinds.fixed' },
  { id: 'freeShipping', name: 'shop.admin.coupons.kinds.freeShipping' },
];

/** The value of the kind chosen: a percentage 1-100, an ETB amount, or none for free delivery. */
function ValueInput() {
  const kind = useWatch({ name: 'kind' });
  if (kind === 'freeShipping') return null;
  return (
    <NumberInput
      source="value"
      label={kind === 'percent' ? 'shop.admin.coupons.percent' : 'shop.admin.coupons.amount'}
      validate={kind === 'percent' ? [required(), minValue(1), maxValue(100)] : [required(), minValue(0.01)]}
    />
  );
}

function CouponFields() {
  return (
    <SimpleForm sx={{ maxWidth: 560 }}>
      <TextInput
        source="code"
        label="shop.admin.coupons.code"
        validate={[required(), regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/, 'shop.admin.coupons.codeRule')]}
        helperText="shop.admin.coupons.codeHelp"
      />
      <SelectInput source="kind" label="shop.admin.coupons.kind" choices={KINDS} validate={required()} />
      <ValueInput />
      <NumberInput source="minSubtotal" label="shop.admin.coupons.minSubtotal" validate={minValue(0)} />
      <DateTimeInput source="startsAt" label="shop.admin.coupons.startsAt" />
      <DateTimeInput source="endsAt" label="shop.admin.coupons.endsAt" />
      <NumberInput source="usageLimit" label="shop.admin.coupons.usageLimit" validate={minValue(1)} />
      <NumberInput
        source="perCustomerLimit"
        label="shop.admin.coupons.perCustomerLimit"
        helperText="shop.admin.coupons.perCustomerHelp"
        validate={minValue(1)}
      />
      <BooleanInput source="active" label="shop.admin.coupons.active" />
    </SimpleForm>
  );
}

function useSaved() {
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const redirect = useRedirect();
  return {
    onSuccess: () => {
      notify('shop.admin.coupons.saved', { type: 'success' });
      redirect('list', 'coupons');
    },
    onError: (error: unknown) => notifyError(error, 'shop.admin.coupons.saveFailed'),
  };
}

export function CouponCreate() {
  const t = useTranslate();
  return (
    <Create
      title={t('shop.admin.coupons.add')}
      transform={couponPayload}
      mutationOptions={useSaved()}
      record={{ kind: 'percent', active: true, minSubtotal: 0 }}
    >
      <CouponFields />
    </Create>
  );
}

export function CouponEdit() {
  const t = useTranslate();
  return (
    <Edit
      title={t('shop.admin.coupons.edit')}
      transform={couponPayload}
      mutationMode="pessimistic"
      mutationOptions={useSaved()}
    >
      <CouponFields />
    </Edit>
  );
}
