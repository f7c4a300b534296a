import { Box, Button, Card, CardContent, Link, Typography } from '@mui/material';
import { ApiError } from '@shop/api-client';
import { passwordScore, passwordStrengthLabel } from '@shop/shared';
import { useState, type FormEvent } from 'react';
import { useBasename, useLogin, useNotify, useRedirect, useTranslate } from 'react-admin';
import { registerAdmin } from '../authProvider';
import { adminApi } from '../shopApi';
import { strongPassword } from '../passwordRule';
import { LanguageButton } from './LanguageButton';
import { TextField } from './LightTextField';
import { ShopLogo } from './ShopLogo';

/**
 * Staff sign-in: email and password (the sign-in asks the API for the admin role), and the
 * specification's admin registration with the server's admin key ('Register with the admin key').
 * The storefront's forms are for customers only and link here.
 */
export function LoginPage() {
  const t = useTranslate();
  const login = useLogin();
  const redirect = useRedirect();
  const basename = useBasename();
  const notify = useNotify();
  const [mode, setMode] = useState<'signIn' | 'register'>('signIn');
  const [values, setValues] = useState({ name: '', email: '', password: '', adminSecretKey: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState<'closed' | 'open' | 'sent'>('closed');
  const set = (k: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [k]: e.target.value }));

  const fail = (err: Error, fallback: string) => {
    const key = err?.message?.startsWith('shop.') ? err.message : fallback;
    setError(key);
    notify(key, { type: 'error' });
  };

  /** Asks for a reset link into the back office; the answer is the same whether or not the account exists. */
  const sendReset = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await adminApi.forgotPassword(values.email);
      setForgot('sent');
    } catch (err) {
      setError(
        err instanceof ApiError && err.statusCode === 429 ? 'shop.admin.auth.tooMany' : 'shop.recover.failed',
      );
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (mode === 'register') {
      const weak = strongPassword(values.password);
      if (weak) return setError(weak);
      setBusy(true);
      registerAdmin(values)
        .then(() => {
          notify('shop.admin.auth.registered', { type: 'success' });
          redirect(`${basename}/dashboard`);
        })
        .catch((err: Error) => fail(err, 'shop.admin.auth.registerFailed'))
        .finally(() => setBusy(false));
      return;
    }
    setBusy(true);
    // After sign-in an admin goes to /admin/dashboard (docs/product.md §2 and §4)
    login({ email: values.email, password: values.password }, `${basename}/dashboard`)
      .catch((err: Error) => fail(err, 'shop.admin.auth.refused'))
      .finally(() => setBusy(false));
  };

  const score = passwordScore(values.password);
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'background.default', p: 2 }}
    >
      <Card sx={{ width: '100%', maxWidth: 400 }} component="form" onSubmit={submit}>
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          {/* on a narrow phone the language button goes below the shop's name, still on the right */}
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              justifyContent: 'space-between',
              alignItems: 'center',
              gap: 1,
            }}
          >
            <Box sx={{ display: 'flex', alignItems: 'center' }}>
              <ShopLogo always />
            </Box>
            <Box sx={{ ml: 'auto' }}>
              <LanguageButton />
            </Box>
          </Box>
          <Typography variant="h5" component="h1">
            {t(mode === 'register' ? 'shop.admin.auth.registerTitle' : 'shop.admin.auth.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t(mode === 'register' ? 'shop.admin.auth.registerSubtitle' : 'shop.admin.auth.subtitle')}
          </Typography>
          {mode === 'register' && (
            <TextField
              label={t('shop.admin.users.name')}
              name="name"
              autoComplete="name"
              required
              value={values.name}
              onChange={set('name')}
            />
          )}
          <TextField
            label={t('ra.auth.email')}
            name="email"
            type="email"
            autoComplete="username"
            required
            value={values.email}
            onChange={set('email')}
          />
          <TextField
            label={t('ra.auth.password')}
            name="password"
            type="password"
            autoComplete={mode === 'register' ? 'new-password' : 'current-password'}
            required
            value={values.password}
            onChange={set('password')}
            helperText={
              mode === 'register'
                ? `${t('shop.admin.users.passwordRule')}${values.password ? ` · ${t('shop.admin.users.strengthLabel', { label: t(`shop.admin.users.strength.${passwordStrengthLabel(score).replace(' ', '_')}`) })}` : ''}`
                : undefined
            }
          />
          {mode === 'register' && (
            <TextField
              label={t('shop.admin.auth.adminKey')}
              name="adminSecretKey"
              type="password"
              autoComplete="off"
              required
              value={values.adminSecretKey}
              onChange={set('adminSecretKey')}
            />
          )}
          {error && (
            <Typography role="alert" color="error" data-testid="login-error">
              {t(error)}
            </Typography>
          )}
          <Button type="submit" variant="contained" disabled={busy}>
            {t(mode === 'register' ? 'shop.admin.auth.register' : 'ra.auth.sign_in')}
          </Button>
          {mode === 'signIn' &&
            (forgot === 'closed' ? (
              <Link
                component="button"
                type="button"
                variant="body2"
                data-testid="forgot-password"
                onClick={() => setForgot('open')}
              >
                {t('shop.recover.forgotLink')}
              </Link>
            ) : forgot === 'open' ? (
              <>
                <Typography variant="body2">{t('shop.recover.forgotIntro')}</Typography>
                <Button
                  type="button"
                  variant="outlined"
                  disabled={busy || !values.email}
                  onClick={() => void sendReset()}
                >
                  {t('shop.recover.send')}
                </Button>
              </>
            ) : (
              <Typography role="status" variant="body2">
                {t('shop.recover.sent')}
              </Typography>
            ))}
          <Link
            component="button"
            type="button"
            variant="body2"
            data-testid="toggle-register"
            onClick={() => {
              setMode(mode === 'register' ? 'signIn' : 'register');
              setError(undefined);
            }}
          >
            {t(mode === 'register' ? 'shop.admin.auth.haveAccount' : 'shop.admin.auth.registerWithKey')}
          </Link>
        </CardContent>
      </Card>
    </Box>
  );
}
