import { CATEGORIES } from '@shop/shared';
import {
  AutocompleteArrayInput,
  BooleanInput,
  Create,
  Edit,
  NumberInput,
  ReferenceArrayInput,
  required,
  SelectArrayInput,
  SelectInput,
  SimpleForm,
  TextInput,
  useTranslate,
} from 'react-admin';
import { useFormat } from '../format';
import { isoToShopLocal, shopLocalToIso } from './shopTime';

/** What the API takes of the form (the record carries id, status and the like too). */
export function promotionPayload(data: Record<string, unknown>): Record<string, unknown> {
  const pick = ['name', 'kind', 'value', 'productIds', 'categories', 'startsAt', 'endsAt', 'active'];
  const out: Record<string, unknown> = {};
  for (const key of pick) if (data[key] !== undefined && data[key] !== null) out[key] = data[key];
  if (out.value !== undefined) out.value = Number(out.value);
  return out;
}

/** The form of a sale; times are typed on the shop's clock (its time zone), not the browser's. */
function PromotionFields() {
  const t = useTranslate();
  const { lang, zone } = useFormat();
  const time = {
    type: 'datetime-local',
    format: (value: string) => isoToShopLocal(value, zone),
    parse: (value: string) => shopLocalToIso(value, zone) ?? '',
    validate: required(),
    helperText: t('shop.admin.promotions.shopTime', { zone }),
    fullWidth: true,
  } as const;
  return (
    <SimpleForm sx={{ maxWidth: 640 }}>
      <TextInput source="name.en" label="shop.admin.promotions.nameEn" validate={required()} fullWidth />
      <TextInput source="name.am" label="shop.admin.promotions.nameAm" validate={required()} fullWidth />
      <SelectInput
        source="kind"
        label="shop.admin.promotions.kind"
        validate={required()}
        choices={[
          { id: 'percent', name: 'shop.admin.promotions.percent' },
          { id: 'fixed', name: 'shop.admin.promotions.fixed' },
        ]}
        fullWidth
      />
      <NumberInput
        source="value"
        label="shop.admin.promotions.value"
        helperText={t('shop.admin.promotions.valueHelp')}
        validate={required()}
        min={0}
        fullWidth
      />
      <SelectArrayInput
        source="categories"
        label="shop.admin.promotions.categories"
        choices={CATEGORIES.map((c) => ({ id: c.slug, name: lang === 'am' ? c.name.am : c.name.en }))}
        translateChoice={false}
        fullWidth
      />
      <ReferenceArrayInput source="productIds" reference="products">
        <AutocompleteArrayInput
          label="shop.admin.promotions.products"
          optionText={(p: { name?: string; nameAm?: string }) => (lang === 'am' && p.nameAm) || p.name || ''}
          filterToQuery={(q: string) => ({ q })}
          fullWidth
        />
      </ReferenceArrayInput>
      <TextInput source="startsAt" label="shop.admin.promotions.startsAt" {...time} />
      <TextInput source="endsAt" label="shop.admin.promotions.endsAt" {...time} />
      <BooleanInput source="active" label="shop.admin.promotions.active" defaultValue />
    </SimpleForm>
  );
}

export function PromotionCreate() {
  return (
    <Create redirect="list" title="shop.admin.promotions.add" transform={promotionPayload}>
      <PromotionFields />
    </Create>
  );
}

export function PromotionEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      redirect="list"
      title="shop.admin.promotions.edit"
      transform={promotionPayload}
    >
      <PromotionFields />
    </Edit>
  );
}
