import { Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { LocalesMenuButton, useBasename, useLogin, useNotify, useTranslate } from 'react-admin';
import { apiUrl } from '../config';

/** Sign-in for admins: email and password (the sign-in asks the API for the admin role). */
export function LoginPage() {
  const t = useTranslate();
  const login = useLogin();
  const basename = useBasename();
  const notify = useNotify();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState<'closed' | 'open' | 'sent'>('closed');

  /** Asks for a reset link to the back office; the answer is the same whether or not the account exists. */
  const sendReset = async () => {
    setBusy(true);
    try {
      const res = await fetch(`${apiUrl}/auth/forgot-password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, app: 'admin' }),
      });
      if (res.ok) setForgot('sent');
      else setError(res.status === 429 ? 'shop.admin.auth.tooMany' : 'shop.recover.failed');
    } catch {
      setError('shop.recover.failed');
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    // SPEC: after sign-in an admin goes to /admin/dashboard
    login({ email, password }, `${basename}/dashboard`)
      .catch((err: Error) => {
        const key = err?.message?.startsWith('shop.') ? err.message : 'shop.admin.auth.refused';
        setError(key);
        notify(key, { type: 'error' });
      })
      .finally(() => setBusy(false));
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100' }}>
      <Card sx={{ width: 360 }} component="form" onSubmit={submit}>
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography variant="h5" component="h1">
              {t('shop.admin.auth.title')}
            </Typography>
            <LocalesMenuButton />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {t('shop.admin.auth.subtitle')}
          </Typography>
          <TextField
            label={t('ra.auth.email')}
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <TextField
            label={t('ra.auth.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {error && (
            <Typography role="alert" color="error" data-testid="login-error">
              {t(error)}
            </Typography>
          )}
          <Button type="submit" variant="contained" disabled={busy}>
            {t('ra.auth.sign_in')}
          </Button>
          {forgot === 'closed' ? (
            <Button size="small" onClick={() => setForgot('open')}>
              {t('shop.recover.forgotLink')}
            </Button>
          ) : forgot === 'open' ? (
            <>
              <Typography variant="body2">{t('shop.recover.forgotIntro')}</Typography>
              <Button variant="outlined" disabled={busy || !email} onClick={() => void sendReset()}>
                {t('shop.recover.send')}
              </Button>
            </>
          ) : (
            <Typography role="status" variant="body2">
              {t('shop.recover.sent')}
            </Typography>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
