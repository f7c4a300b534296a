import { Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { apiUrl } from '../config';
import { i18nProvider } from '../i18nProvider';

const t = (key: string) => i18nProvider.translate(key);

/** Staff open the emailed link here (outside the signed-in back office) and choose a new password. */
export function ResetPasswordPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) return setError('shop.auth.passwordsMismatch');
    setBusy(true);
    setError(undefined);
    try {
      const res = await fetch(`${apiUrl}/auth/reset-password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, password, confirmPassword: confirm }),
      });
      const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
      if (res.ok) setDone(true);
      else
        setError(
          body.code === 'RESET_INVALID' ? 'shop.recover.invalid' : body.message || 'shop.recover.failed',
        );
    } catch {
      setError('shop.recover.failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100' }}>
      <Card sx={{ width: 360 }} component="form" onSubmit={submit}>
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="h5" component="h1">
            {t('shop.recover.resetTitle')}
          </Typography>
          {done ? (
            <>
              <Typography role="status">{t('shop.recover.done')}</Typography>
              <Button href="/admin/login" variant="contained">
                {t('ra.auth.sign_in')}
              </Button>
            </>
          ) : (
            <>
              <TextField
                label={t('shop.recover.newPassword')}
                name="password"
                type="password"
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <TextField
                label={t('shop.recover.confirmPassword')}
                name="confirmPassword"
                type="password"
                autoComplete="new-password"
                required
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
              {error && (
                <Typography role="alert" color="error">
                  {error.startsWith('shop.') ? t(error) : error}
                </Typography>
              )}
              <Button type="submit" variant="contained" disabled={busy || !token}>
                {t('shop.recover.save')}
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
