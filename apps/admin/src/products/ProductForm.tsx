import {
  Alert,
  Box,
  Dialog,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { CATEGORY_SLUGS } from '@shop/shared';
import {
  BooleanInput,
  CreateBase,
  EditBase,
  NumberInput,
  required,
  maxLength,
  minValue,
  number,
  SelectInput,
  SimpleForm,
  TextInput,
  useLocaleState,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { useWatch } from 'react-hook-form';
import { cleanLines, linesToText, stockState, textToLines } from './gallery';
import { GalleryField } from './GalleryField';
import {
  compareAtError,
  defaultVariant,
  discountShown,
  productToForm,
  stockSum,
  subCategoryChoices,
  subCategoryError,
  variantsPayload,
  type VariantForm,
} from './productFields';
import { VariantsField } from './VariantsField';

type ProductFormValues = RaRecord & Record<string, unknown>;

const LIST_FIELDS = ['ingredients', 'ingredientsAm', 'benefits', 'benefitsAm'] as const;

/**
 * What the form saves: lists edited one entry a line as trimmed, non-empty lines; options and variants
 * in the API's shape (with the product's stock, price and compare-at price taken from them), none for a
 * product without variants (productFields.ts variantsPayload).
 */
export const toPayload = (data: ProductFormValues) => {
  const { options: _options, variants: _variants, ...rest } = data;
  const out: ProductFormValues = { ...rest, ...variantsPayload(data) } as ProductFormValues;
  for (const f of LIST_FIELDS) if (f in out) out[f] = cleanLines(out[f]);
  return out;
};

/** The record as the form edits it (options and variants in the form's shape); a stable function for react-query's `select`. */
const recordToForm = (record: RaRecord): RaRecord => ({ ...productToForm(record), id: record.id });

/** A product with variants: its price and stock are theirs, shown read-only (the default variant's price, the sum of the stock). */
function VariantFigures({ variants }: { variants: VariantForm[] }) {
  const t = useTranslate();
  const first = defaultVariant(variants);
  return (
    <>
      <TextField
        size="small"
        label={t('shop.admin.products.price')}
        value={first?.price ?? ''}
        helperText={t('shop.admin.products.variants.priceFromVariant')}
        name="price-from-variants"
        slotProps={{ input: { readOnly: true } }}
        sx={{ mb: 2 }}
      />
      <Box>
        <TextField
          size="small"
          label={t('shop.admin.products.stock')}
          value={stockSum(variants)}
          helperText={t('shop.admin.products.variants.stockFromVariants')}
          name="stock-sum"
          slotProps={{ input: { readOnly: true } }}
          sx={{ mb: 2 }}
        />
      </Box>
    </>
  );
}

/** Stock with its warning: out of stock, or low (at most the shared low-stock threshold). */
function StockWarning() {
  const t = useTranslate();
  const stock = useWatch({ name: 'stock' });
  if (stock === undefined || stock === null || stock === '') return null;
  const state = stockState(Number(stock));
  if (state === 'in') return null;
  return (
    <Alert severity={state === 'out' ? 'error' : 'warning'} data-testid="stock-warning" sx={{ py: 0 }}>
      {t(state === 'out' ? 'shop.admin.products.outOfStock' : 'shop.admin.products.lowStock', {
        count: Number(stock),
      })}
    </Alert>
  );
}

/** One language's texts: name, description, ingredients and benefits (one a line). */
function LanguageColumn({ lang }: { lang: 'en' | 'am' }) {
  const t = useTranslate();
  const suffix = lang === 'am' ? 'Am' : '';
  return (
    <Box
      component="fieldset"
      lang={lang}
      data-testid={`product-texts-${lang}`}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, pb: 1, m: 0, minWidth: 0 }}
    >
      <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>
        {t(lang === 'am' ? 'shop.admin.products.inAmharic' : 'shop.admin.products.inEnglish')}
      </Typography>
      <TextInput
        source={`name${suffix}`}
        label="shop.admin.products.name"
        validate={lang === 'en' ? required() : undefined}
        fullWidth
      />
      <TextInput
        source={`description${suffix}`}
        label="shop.admin.products.description"
        multiline
        minRows={2}
        fullWidth
      />
      <TextInput
        source={`ingredients${suffix}`}
        label="shop.admin.products.ingredients"
        helperText="shop.admin.products.oneALine"
        multiline
        minRows={2}
        format={linesToText}
        parse={textToLines}
        fullWidth
      />
      <TextInput
        source={`benefits${suffix}`}
        label="shop.admin.products.benefits"
        helperText="shop.admin.products.oneALine"
        multiline
        minRows={2}
        format={linesToText}
        parse={textToLines}
        fullWidth
      />
    </Box>
  );
}

/** Validators reading the whole form: the compare-at price against the price, the sub-category against the category. */
const validateCompareAt = (value: unknown, values: Record<string, unknown>) =>
  compareAtError(value, values.price);
const validateSubCategory = (value: unknown, values: Record<string, unknown>) =>
  subCategoryError(value, values.category);

/** The compare-at price with the badge customers will see ('17% off'). */
function CompareAtInput() {
  const t = useTranslate();
  const [price, compareAt] = useWatch({ name: ['price', 'originalPrice'] });
  const percent = discountShown(price, compareAt);
  return (
    <Box>
      <NumberInput
        source="originalPrice"
        label="shop.admin.products.compareAt"
        helperText="shop.admin.products.compareAtHelp"
        validate={[number(), minValue(0), validateCompareAt]}
      />
      {percent > 0 && (
        <Alert severity="info" data-testid="discount-preview" sx={{ py: 0 }}>
          {t('shop.admin.products.discountPreview', { percent })}
        </Alert>
      )}
    </Box>
  );
}

/** The category's sub-categories, named in the page's language. */
function SubCategoryInput() {
  const [locale] = useLocaleState();
  const category = useWatch({ name: 'category' });
  return (
    <SelectInput
      source="subCategory"
      label="shop.admin.products.subCategory"
      emptyText="shop.admin.products.noSubCategory"
      choices={subCategoryChoices(category, locale)}
      validate={validateSubCategory}
    />
  );
}

/** The product's price, compare-at price and stock: its own, or read-only from its variants when it has some. */
function PriceAndStock() {
  const variants: VariantForm[] = useWatch({ name: 'variants' }) ?? [];
  if (variants.length) return <VariantFigures variants={variants} />;
  return (
    <>
      <NumberInput
        source="price"
        label="shop.admin.products.price"
        validate={[required(), number(), minValue(0)]}
      />
      <CompareAtInput />
      <Box>
        <NumberInput
          source="stock"
          label="shop.admin.products.stock"
          validate={[required(), number(), minValue(0)]}
          step={1}
        />
        <StockWarning />
      </Box>
    </>
  );
}

function ProductFields() {
  const t = useTranslate();
  return (
    <SimpleForm>
      <Box sx={{ display: 'grid', gap: 2, width: '100%', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <LanguageColumn lang="en" />
        <LanguageColumn lang="am" />
      </Box>
      <Box
        sx={{
          display: 'grid',
          columnGap: 2,
          width: '100%',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          alignItems: 'start',
        }}
      >
        <SelectInput
          source="category"
          label="shop.admin.products.category"
          validate={required()}
          choices={CATEGORY_SLUGS.map((c) => ({ id: c, name: t(`shop.admin.products.categories.${c}`) }))}
        />
        <SubCategoryInput />
        <TextInput source="brand" label="shop.admin.products.brand" />
        <TextInput
          source="size"
          label="shop.admin.products.size"
          helperText="shop.admin.products.sizeHelp"
          validate={maxLength(50)}
        />
        <PriceAndStock />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <BooleanInput source="isFeatured" label="shop.admin.products.featured" />
        <BooleanInput
          source="active"
          label="shop.admin.products.onSale"
          helperText="shop.admin.products.publishedHelp"
          defaultValue
        />
      </Box>
      <GalleryField />
      <VariantsField />
    </SimpleForm>
  );
}

/** 'Add new product' or edit, in a modal (full screen on a phone); the spec's notifications on success and failure. */
export function ProductFormDialog({ record, onClose }: { record: RaRecord | 'new'; onClose: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const refresh = useRefresh();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const mutationOptions = {
    onSuccess: () => {
      notify('shop.admin.products.saved', { type: 'success' });
      refresh();
      onClose();
    },
    onError: (error: unknown) => notifyError(error, 'shop.admin.products.saveFailed'),
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone}>
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
            record={{ images: [], active: true, options: [], variants: [] }}
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
            queryOptions={{ select: recordToForm }}
          >
            <ProductFields />
          </EditBase>
        )}
      </DialogContent>
    </Dialog>
  );
}
