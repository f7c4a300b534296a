import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { NumberInput, TextInput, useInput, useTranslate, ValidationError, type Validator } from 'react-admin';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { GalleryField } from './GalleryField';
import {
  emptyVariant,
  joinValues,
  MAX_OPTIONS,
  MAX_VARIANTS,
  missingCombinations,
  OPTION_KINDS,
  splitValues,
  stockSum,
  variantErrors,
  withoutOption,
  type OptionForm,
  type VariantForm,
} from './productFields';

const V = 'shop.admin.products.variants';
/** Touch targets of at least 44 px (phone-first: docs/quality.md). */
const TARGET = { minWidth: 44, minHeight: 44 };

/** A validator that says what variantErrors says about the field at `path`. */
const variantRule =
  (path: string): Validator =>
  (_value: unknown, values: Record<string, unknown>) =>
    variantErrors(values)[path];

/** A native select (the phone's own picker) bound to the form, with react-admin's validation and messages. */
function NativeSelect({
  source,
  label,
  choices,
  validate,
  emptyLabel,
}: {
  source: string;
  label: string;
  choices: { id: string; name: string }[];
  validate?: Validator;
  emptyLabel?: string;
}) {
  const t = useTranslate();
  const { field, fieldState } = useInput({ source, validate });
  const error = fieldState.error?.message;
  return (
    <TextField
      select
      size="small"
      fullWidth
      label={t(label)}
      name={source}
      value={field.value ?? ''}
      onChange={(e) => field.onChange(e.target.value)}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={Boolean(error)}
      helperText={error ? <ValidationError error={error} /> : ' '}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {choices.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </TextField>
  );
}

/** An option's values typed as text ("30 ml, 50 ml, 100 ml"); the form keeps the list. */
function ValuesInput({ index }: { index: number }) {
  const t = useTranslate();
  const source = `options.${index}.values`;
  const { field, fieldState } = useInput({ source, validate: variantRule(source) });
  const [text, setText] = useState(() => joinValues(field.value));
  const error = fieldState.error?.message;
  return (
    <TextField
      size="small"
      fullWidth
      name={source}
      label={t(`${V}.values`)}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        field.onChange(splitValues(e.target.value));
      }}
      onBlur={() => {
        setText(joinValues(field.value));
        field.onBlur();
      }}
      error={Boolean(error)}
      helperText={error ? <ValidationError error={error} /> : t(`${V}.valuesHelp`)}
    />
  );
}

/** The colour of a shade's swatch ('#rrggbb'), with a button to leave it out. */
function SwatchInput({ source }: { source: string }) {
  const t = useTranslate();
  const { field } = useInput({ source });
  const value = typeof field.value === 'string' ? field.value : '';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <TextField
        type="color"
        size="small"
        name={source}
        label={t(`${V}.swatch`)}
        value={value || '#000000'}
        onChange={(e) => field.onChange(e.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { style: { minHeight: 32, width: 56 } } }}
      />
      <Typography variant="caption" sx={{ minWidth: 56 }}>
        {value || t(`${V}.noSwatch`)}
      </Typography>
      {value && (
        <Button size="small" sx={TARGET} onClick={() => field.onChange('')}>
          {t(`${V}.clearSwatch`)}
        </Button>
      )}
    </Box>
  );
}

function OptionsEditor({
  onRemove,
}: {
  /** Removes option `index` and its value column from every variant. */
  onRemove: (index: number) => void;
}) {
  const t = useTranslate();
  const { fields, append } = useFieldArray({ name: 'options' });
  return (
    <Box sx={{ display: 'grid', gap: 1 }} data-testid="variant-options">
      <Typography variant="subtitle2" component="h4">
        {t(`${V}.options`)}
      </Typography>
      {fields.map((f, i) => (
        <Box
          key={f.id}
          data-testid="variant-option"
          sx={{
            display: 'grid',
            gap: 1,
            alignItems: 'start',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            p: 1,
            gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 10rem 2fr auto' },
          }}
        >
          <TextInput
            source={`options.${i}.name`}
            label={`${V}.optionName`}
            validate={variantRule(`options.${i}.name`)}
            helperText={false}
            fullWidth
          />
          <TextInput
            source={`options.${i}.nameAm`}
            label={`${V}.optionNameAm`}
            helperText={false}
            fullWidth
          />
          <NativeSelect
            source={`options.${i}.kind`}
            label={`${V}.kind`}
            choices={OPTION_KINDS.map((k) => ({ id: k, name: t(`${V}.kinds.${k}`) }))}
          />
          <ValuesInput index={i} />
          <IconButton
            aria-label={t(`${V}.removeOption`)}
            title={t(`${V}.removeOption`)}
            onClick={() => onRemove(i)}
            sx={TARGET}
          >
            <DeleteIcon />
          </IconButton>
        </Box>
      ))}
      {fields.length < MAX_OPTIONS && (
        <Box>
          <Button
            startIcon={<AddIcon />}
            sx={TARGET}
            onClick={() =>
              append({
                name: '',
                nameAm: '',
                kind: fields.length ? 'other' : 'size',
                values: [],
              } as OptionForm)
            }
          >
            {t(`${V}.addOption`)}
          </Button>
        </Box>
      )}
    </Box>
  );
}

/**
 * The product's variants (issue 30.3): its options (size, shade…) with their values, and one row per
 * variant with its choice of values, SKU, price, compare-at price, stock, low-stock threshold, swatch and
 * images. Rows are added, removed and reordered with buttons (keyboard and touch, no dragging); the order
 * is the storefront picker's. A product without options shows only the button that starts them.
 */
export function VariantsField() {
  const t = useTranslate();
  const { getValues, setValue } = useFormContext();
  const options: OptionForm[] = useWatch({ name: 'options' }) ?? [];
  const variants: VariantForm[] = useWatch({ name: 'variants' }) ?? [];
  const { fields, append, remove, move, replace } = useFieldArray({ name: 'variants' });
  const [openImages, setOpenImages] = useState<Record<string, boolean>>({});
  const list = useRef<HTMLOListElement>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<{ index: number; dir: 'up' | 'down' } | null>(null);
  const hasShade = options.some((o) => o.kind === 'shade');

  // keep the keyboard where it was: the moved row's same button (or its other one at an end of the list)
  useEffect(() => {
    if (!focusAfterMove || !list.current) return;
    const { index, dir } = focusAfterMove;
    const pick = (d: string) =>
      list.current?.querySelector<HTMLButtonElement>(
        `[data-row="${index}"] [data-move="${d}"]:not([disabled])`,
      );
    (pick(dir) ?? pick(dir === 'up' ? 'down' : 'up'))?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  const removeOption = (index: number) => {
    const current = (getValues('variants') ?? []) as VariantForm[];
    const nextOptions = ((getValues('options') ?? []) as OptionForm[]).filter((_, k) => k !== index);
    setValue('options', nextOptions, { shouldDirty: true });
    replace(nextOptions.length ? withoutOption(current, index) : []);
  };

  const moveRow = (from: number, to: number) => {
    move(from, to);
    setFocusAfterMove({ index: to, dir: to < from ? 'up' : 'down' });
  };

  const rowTitle = (v: VariantForm | undefined) =>
    (v?.values ?? []).filter(Boolean).join(' · ') || t(`${V}.newVariant`);
  const missing = missingCombinations(options, variants);

  return (
    <Box
      component="fieldset"
      data-testid="variants"
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        px: 1.5,
        pb: 1.5,
        m: 0,
        width: '100%',
        minWidth: 0,
      }}
    >
      <Typography component="legend" variant="subtitle1" sx={{ px: 0.5, fontWeight: 700 }}>
        {t(`${V}.title`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t(options.length ? `${V}.help` : `${V}.none`)}
      </Typography>
      <OptionsEditor onRemove={removeOption} />
      {options.length > 0 && (
        <Box sx={{ display: 'grid', gap: 1, mt: 2 }}>
          <Typography variant="subtitle2" component="h4">
            {t(`${V}.list`, { count: fields.length })}
            {fields.length > 0 && ` · ${t(`${V}.stockTotal`, { count: stockSum(variants) })}`}
          </Typography>
          <Box component="ol" ref={list} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
            {fields.map((f, j) => {
              const v = variants[j];
              return (
                <Box
                  component="li"
                  key={f.id}
                  data-row={j}
                  data-testid="variant-row"
                  aria-label={t(`${V}.rowLabel`, { position: j + 1, name: rowTitle(v) })}
                  sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}
                >
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 1 }}>
                    <Typography
                      sx={{ flex: 1, fontWeight: 700, overflowWrap: 'anywhere' }}
                      data-testid="variant-title"
                    >
                      {j + 1}. {rowTitle(v)}
                    </Typography>
                    <IconButton
                      data-move="up"
                      aria-label={t(`${V}.moveUp`)}
                      title={t(`${V}.moveUp`)}
                      disabled={j === 0}
                      onClick={() => moveRow(j, j - 1)}
                      sx={TARGET}
                    >
                      <ArrowUpwardIcon />
                    </IconButton>
                    <IconButton
                      data-move="down"
                      aria-label={t(`${V}.moveDown`)}
                      title={t(`${V}.moveDown`)}
                      disabled={j === fields.length - 1}
                      onClick={() => moveRow(j, j + 1)}
                      sx={TARGET}
                    >
                      <ArrowDownwardIcon />
                    </IconButton>
                    <IconButton
                      aria-label={t(`${V}.removeVariant`)}
                      title={t(`${V}.removeVariant`)}
                      onClick={() => remove(j)}
                      sx={TARGET}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </Box>
                  <Box
                    sx={{
                      display: 'grid',
                      columnGap: 1,
                      gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' },
                      alignItems: 'start',
                    }}
                  >
                    {options.map((o, k) => (
                      <NativeSelect
                        key={k}
                        source={`variants.${j}.values.${k}`}
                        label={o.name || t(`${V}.optionNumber`, { number: k + 1 })}
                        choices={o.values.map((value) => ({ id: value, name: value }))}
                        emptyLabel={t(`${V}.choose`)}
                        validate={variantRule(`variants.${j}.values.${k}`)}
                      />
                    ))}
                    <TextInput
                      source={`variants.${j}.sku`}
                      label={`${V}.sku`}
                      validate={variantRule(`variants.${j}.sku`)}
                      fullWidth
                    />
                    <NumberInput
                      source={`variants.${j}.price`}
                      label="shop.admin.products.price"
                      validate={variantRule(`variants.${j}.price`)}
                      fullWidth
                    />
                    <NumberInput
                      source={`variants.${j}.originalPrice`}
                      label="shop.admin.products.compareAt"
                      validate={variantRule(`variants.${j}.originalPrice`)}
                      fullWidth
                    />
                    <NumberInput
                      source={`variants.${j}.stock`}
                      label="shop.admin.products.stock"
                      validate={variantRule(`variants.${j}.stock`)}
                      step={1}
                      fullWidth
                    />
                    <NumberInput
                      source={`variants.${j}.lowStockThreshold`}
                      label={`${V}.lowStockThreshold`}
                      helperText={`${V}.lowStockHelp`}
                      validate={variantRule(`variants.${j}.lowStockThreshold`)}
                      step={1}
                      fullWidth
                    />
                    {hasShade && <SwatchInput source={`variants.${j}.swatch`} />}
                  </Box>
                  <Button
                    size="small"
                    sx={TARGET}
                    aria-expanded={Boolean(openImages[f.id])}
                    onClick={() => setOpenImages((o) => ({ ...o, [f.id]: !o[f.id] }))}
                  >
                    {t(`${V}.images`, { count: v?.images?.length ?? 0 })}
                  </Button>
                  {openImages[f.id] && (
                    <GalleryField
                      source={`variants.${j}.images`}
                      label={`${V}.imagesHelp`}
                      testId="variant-gallery"
                    />
                  )}
                </Box>
              );
            })}
          </Box>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {fields.length < MAX_VARIANTS && (
              <Button
                variant="outlined"
                startIcon={<AddIcon />}
                sx={TARGET}
                onClick={() => append(emptyVariant(options.length))}
              >
                {t(`${V}.addVariant`)}
              </Button>
            )}
            {missing.length > 0 && (
              <Button
                startIcon={<AddIcon />}
                sx={TARGET}
                onClick={() => append(missing.map((values) => ({ ...emptyVariant(options.length), values })))}
              >
                {t(`${V}.addCombinations`, { smart_count: missing.length })}
              </Button>
            )}
          </Box>
        </Box>
      )}
    </Box>
  );
}
