import {
  Box,
  Button,
  Card,
  CardContent,
  TextField,
  ThemeProvider,
  Typography,
  createTheme,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { apiErrorMessage, errorBody, type Translate } from '../apiErrors';
import { i18nProvider } from '../i18nProvider';
import { adminApi } from '../shopApi';
import { lightTheme } from '../theme';

/** The page lives outside react-admin's <Admin>, so it takes the shop's theme (its Ethiopic font, colours) itself. */
const theme = createTheme(lightTheme);

const t: Translate = (key, options) => i18nProvider.translate(key, options);

/**
 * What the page says of a failed reset, chosen by the API's code in the chosen language (never the
 * API's English): an invalid or used link has the page's own text, other codes (a weak password, too
 * many attempts) their `errors.<CODE>` text, anything else the page's generic failure.
 */
export function resetRefusalText(error: unknown, translate: Translate): string {
  if (errorBody(error).code === 'RESET_INVALID') return translate('shop.recover.invalid');
  return apiErrorMessage(error, translate, 'shop.recover.failed');
}

/** Staff open the emailed link here (outside the signed-in back office) and choose a new password. */
export function ResetPasswordPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  /** The refusal (a key of the page's own, or what the call threw), worded at render time. */
  const [error, setError] = useState<{ key: string } | { refusal: unknown }>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) return setError({ key: 'shop.auth.passwordsMismatch' });
    setBusy(true);
    setError(undefined);
    try {
      await adminApi.resetPassword(token, password, confirm);
      setDone(true);
    } catch (refusal) {
      setError({ refusal });
    } finally {
      setBusy(false);
    }
  };

  return (
    <ThemeProvider theme={theme}>
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
                    {'key' in error ? t(error.key) : resetRefusalText(error.refusal, t)}
                  </Typography>
                )}
                <Button type="submit" variant="contained" disabled={busy || !token}>
                  {t('shop.recover.save')}
                </Button>
                {error && (
                  // a new link is asked for from the sign-in page ('Forgot password?')
                  <Button href="/admin/login" variant="text">
                    {t('ra.auth.sign_in')}
                  </Button>
                )}
              </>
            )}
          </CardContent>
        </Card>
      </Box>
    </ThemeProvider>
  );
}
