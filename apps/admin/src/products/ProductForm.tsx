import { Dialog, DialogContent, DialogTitle } from '@mui/material';
import { CATEGORY_SLUGS } from '@shop/shared';
import {
  BooleanInput,
  CreateBase,
  EditBase,
  NumberInput,
  required,
  minValue,
  number,
  SelectInput,
  SimpleForm,
  TextInput,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ImageField } from './ImageField';

type ProductFormValues = RaRecord & { imageUrl?: string; images?: string[] };

/** The form keeps one image as `imageUrl`; the API stores `images`. */
const toPayload = ({ imageUrl, ...data }: ProductFormValues) => ({
  ...data,
  images: imageUrl ? [imageUrl] : [],
});

function ProductFields() {
  const t = useTranslate();
  return (
    <SimpleForm>
      <TextInput source="name" label="shop.admin.products.name" validate={required()} fullWidth />
      <TextInput source="brand" label="shop.admin.products.brand" fullWidth />
      <TextInput source="description" label="shop.admin.products.description" multiline fullWidth />
      <NumberInput
        source="price"
        label="shop.admin.products.price"
        validate={[required(), number(), minValue(0)]}
      />
      <NumberInput
        source="stock"
        label="shop.admin.products.stock"
        validate={[required(), number(), minValue(0)]}
        step={1}
      />
      <SelectInput
        source="category"
        label="shop.admin.products.category"
        choices={CATEGORY_SLUGS.map((c) => ({ id: c, name: t(`shop.admin.products.categories.${c}`) }))}
      />
      <BooleanInput source="isFeatured" label="shop.admin.products.featured" />
      <BooleanInput source="active" label="shop.admin.products.onSale" defaultValue />
      <ImageField />
    </SimpleForm>
  );
}

/** 'Add new product' or edit, in a modal; the spec's notifications on success and failure. */
export function ProductFormDialog({ record, onClose }: { record: RaRecord | 'new'; onClose: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const mutationOptions = {
    onSuccess: () => {
      notify('shop.admin.products.saved', { type: 'success' });
      refresh();
      onClose();
    },
    onError: () => notify('shop.admin.products.saveFailed', { type: 'error' }),
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>
        {t(record === 'new' ? 'shop.admin.products.add' : 'shop.admin.products.edit')}
      </DialogTitle>
      <DialogContent>
        {record === 'new' ? (
          <CreateBase
            resource="products"
            redirect={false}
            transform={toPayload}
            mutationOptions={mutationOptions}
          >
            <ProductFields />
          </CreateBase>
        ) : (
          <EditBase
            resource="products"
            id={record.id}
            redirect={false}
            mutationMode="pessimistic"
            transform={toPayload}
            mutationOptions={mutationOptions}
            queryOptions={{ select: (p: ProductFormValues) => ({ ...p, imageUrl: p.images?.[0] ?? '' }) }}
          >
            <ProductFields />
          </EditBase>
        )}
      </DialogContent>
    </Dialog>
  );
}
