import {
  Box,
  Checkbox,
  Chip,
  FormControlLabel,
  ListItemText,
  MenuItem,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { ETHIOPIAN_REGIONS, regionName } from '@shop/shared';
import { useTranslate } from 'react-admin';
import { useFormat } from '../format';
import type { CodErrors, CodForm } from './cashOnDelivery';

/**
 * The 'Pay on delivery' tab: on or off, the regions it is offered in (Ethiopia's regions and chartered
 * cities, named in the page's language), the largest order total in ETB; each field's error under it.
 */
export function CashOnDeliveryPanel({
  form,
  errors,
  onChange,
}: {
  form: CodForm;
  errors: CodErrors;
  onChange: (form: CodForm) => void;
}) {
  const t = useTranslate();
  const { lang } = useFormat();
  const name = (region: string) => regionName(region, lang);
  return (
    <Box sx={{ display: 'grid', gap: 2 }} data-testid="cod-settings">
      <Typography variant="body2" color="text.secondary">
        {t('shop.admin.settings.cod.intro')}
      </Typography>
      <FormControlLabel
        label={t('shop.admin.settings.cod.enabled')}
        control={
          <Switch
            name="cashOnDelivery.enabled"
            checked={form.enabled}
            onChange={(e) => onChange({ ...form, enabled: e.target.checked })}
          />
        }
      />
      <TextField
        select
        name="cashOnDelivery.regions"
        label={t('shop.admin.settings.cod.regions')}
        value={form.regions}
        error={Boolean(errors.regions)}
        helperText={errors.regions ? t(errors.regions) : t('shop.admin.settings.cod.regionsHelp')}
        onChange={(e) => {
          const value = e.target.value as unknown as string[] | string;
          onChange({ ...form, regions: typeof value === 'string' ? value.split(',') : value });
        }}
        slotProps={{
          select: {
            multiple: true,
            renderValue: (selected) => (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                {(selected as string[]).map((r) => (
                  <Chip key={r} size="small" label={name(r)} data-testid="cod-region" />
                ))}
              </Box>
            ),
          },
        }}
        fullWidth
      >
        {ETHIOPIAN_REGIONS.map((r) => (
          <MenuItem key={r.code} value={r.en} data-testid={`cod-region-${r.code}`}>
            <Checkbox size="small" checked={form.regions.includes(r.en)} sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={name(r.en)} />
          </MenuItem>
        ))}
      </TextField>
      <TextField
        name="cashOnDelivery.maxOrderTotal"
        label={t('shop.admin.settings.cod.maxOrderTotal')}
        value={form.maxOrderTotal}
        error={Boolean(errors.maxOrderTotal)}
        helperText={
          errors.maxOrderTotal ? t(errors.maxOrderTotal) : t('shop.admin.settings.cod.maxOrderTotalHelp')
        }
        onChange={(e) => onChange({ ...form, maxOrderTotal: e.target.value })}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        fullWidth
      />
    </Box>
  );
}
