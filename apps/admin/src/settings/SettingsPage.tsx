import {
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  MenuItem,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { SETTINGS_CURRENCIES, SETTINGS_LANGUAGES, SETTINGS_TIMEZONES } from '@shop/shared';
import { useEffect, useState, type ReactNode } from 'react';
import { Loading, Title, useNotify, useTranslate } from 'react-admin';
import { apiFieldErrors, useNotifyApiError } from '../apiErrors';
import { adminApi, type ShopSettings } from '../shopApi';
import {
  codErrors,
  codForm,
  codPayload,
  codServerErrors,
  type CodErrors,
  type CodForm,
} from './cashOnDelivery';
import { CashOnDeliveryPanel } from './CashOnDeliveryPanel';
import { setShopTimeZone } from '../shopClock';

type Key = keyof ShopSettings;
const TABS = ['general', 'admin', 'notifications', 'system', 'cod'] as const;
const SWITCHES: Record<(typeof TABS)[number], Key[]> = {
  general: ['pricesIncludeTax'],
  admin: [],
  notifications: ['emailNotifications', 'orderNotifications', 'lowStockAlerts'],
  system: ['maintenanceMode'],
  cod: [],
};
const SHIPPING: Key[] = ['standardShipping', 'expressShipping', 'pickupShipping', 'freeShippingThreshold'];

/** /admin/settings: every settings field in five tabs (the fifth: pay on delivery), saved as one document. */
export function SettingsPage() {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const [tab, setTab] = useState<(typeof TABS)[number]>('general');
  const [settings, setSettings] = useState<ShopSettings>();
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [cod, setCod] = useState<CodForm>();
  const [codServer, setCodServer] = useState<CodErrors>({});
  const loaded = (s: ShopSettings) => {
    setSettings(s);
    setShopTimeZone(s.timezone); // the back office's dates follow the saved shop clock
    setCod(s.cashOnDelivery ? codForm(s.cashOnDelivery) : undefined);
    setCodServer({});
  };

  useEffect(() => {
    adminApi.settings().then(
      (s) => {
        setSettings(s);
        setCod(s.cashOnDelivery ? codForm(s.cashOnDelivery) : undefined);
      },
      (error: unknown) => {
        setFailed(true);
        notifyError(error, 'shop.admin.settings.loadFailed');
      },
    );
  }, [notifyError]);

  if (failed)
    return (
      <Typography color="error" role="alert" sx={{ m: 2 }}>
        {t('shop.admin.settings.loadFailed')}
      </Typography>
    );
  if (!settings) return <Loading />;

  const set = <K extends Key>(key: K, value: ShopSettings[K]) => setSettings({ ...settings, [key]: value });
  const text = (key: Key, type = 'text') => (
    <TextField
      key={key}
      name={key}
      type={type}
      label={t(`shop.admin.settings.fields.${key}`)}
      value={settings[key] as string | number}
      onChange={(e) => set(key, (type === 'number' ? Number(e.target.value) : e.target.value) as never)}
      slotProps={{ htmlInput: type === 'number' ? { min: 0, step: 0.01 } : undefined }}
      multiline={key === 'siteDescription'}
      fullWidth
    />
  );
  const select = (key: Key, options: readonly string[], label: (o: string) => string) => (
    <TextField
      key={key}
      select
      name={key}
      label={t(`shop.admin.settings.fields.${key}`)}
      value={settings[key] as string}
      onChange={(e) => set(key, e.target.value as never)}
      fullWidth
    >
      {options.map((o) => (
        <MenuItem key={o} value={o}>
          {label(o)}
        </MenuItem>
      ))}
    </TextField>
  );
  const toggle = (key: Key) => (
    <FormControlLabel
      key={key}
      label={t(`shop.admin.settings.fields.${key}`)}
      control={
        <Switch
          name={key}
          checked={Boolean(settings[key])}
          onChange={(e) => set(key, e.target.checked as never)}
        />
      }
    />
  );

  const codLocal = cod ? codErrors(cod) : {};
  const save = async () => {
    if (Object.keys(codLocal).length > 0) {
      setTab('cod');
      notify('shop.admin.settings.cod.invalid', { type: 'error' });
      return;
    }
    setSaving(true);
    try {
      loaded(await adminApi.saveSettings(cod ? { ...settings, cashOnDelivery: codPayload(cod) } : settings));
      notify('shop.admin.settings.saved', { type: 'success' });
    } catch (error) {
      notifyError(error, 'shop.admin.settings.saveFailed');
      const server = codServerErrors(apiFieldErrors(error, t));
      setCodServer(server);
      if (Object.keys(server).length > 0) setTab('cod');
    } finally {
      setSaving(false);
    }
  };

  const panels: Record<(typeof TABS)[number], ReactNode> = {
    general: [
      text('siteName'),
      text('siteDescription'),
      select('currency', SETTINGS_CURRENCIES, (c) => c),
      select('language', SETTINGS_LANGUAGES, (l) => t(`shop.admin.settings.languages.${l}`)),
    ],
    admin: [
      text('adminEmail', 'email'),
      select('timezone', SETTINGS_TIMEZONES, (z) => t(`shop.admin.settings.timezones.${z}`)),
    ],
    notifications: SWITCHES.notifications.map(toggle),
    system: [...SWITCHES.system.map(toggle), ...SHIPPING.map((k) => text(k, 'number'))],
    cod: cod && (
      <CashOnDeliveryPanel
        form={cod}
        errors={{ ...codServer, ...codLocal }}
        onChange={(next) => {
          setCod(next);
          setCodServer({});
        }}
      />
    ),
  };

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={t('shop.admin.settings.title')} />
      <Tabs
        value={tab}
        onChange={(_e, v) => setTab(v)}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        // the tabs scroll inside the card: they add no width of their own to the page (a phone's 390 px)
        sx={{ width: 0, minWidth: '100%' }}
      >
        {TABS.filter((k) => k !== 'cod' || cod).map((k) => (
          <Tab
            key={k}
            value={k}
            label={t(`shop.admin.settings.tabs.${k}`)}
            data-testid={`settings-tab-${k}`}
          />
        ))}
      </Tabs>
      <CardContent>
        <Box sx={{ display: 'grid', gap: 2, maxWidth: 560 }}>{panels[tab]}</Box>
        <Button sx={{ mt: 3 }} variant="contained" onClick={save} disabled={saving}>
          {t('shop.admin.settings.save')}
        </Button>
      </CardContent>
    </Card>
  );
}
