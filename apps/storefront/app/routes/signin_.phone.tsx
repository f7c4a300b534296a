import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { adminUrl, afterSignIn, guestOnly } from '../account/auth/auth.server';
import { Field } from '../account/components';
import { FormErrors } from '../components/FormErrors';
import { safeRedirectPath } from '../account/auth/intent';
import { requestCode, verifyCode, validateOtpPhone, validateOtpCode } from '../account/auth/otp.server';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';
import { sessionCookie } from '../session.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'otp.title')];

/** Like sign-in and sign-up: for guests; a signed-in visitor goes where they were heading. */
export const loader = ({ request }: LoaderFunctionArgs) => guestOnly(request);

type ActionData = {
  /** 'phone': ask for the number; 'code': the code was sent to `phone` (normalised, +251…) */
  step: 'phone' | 'code';
  phone: string;
  /** the number as typed, shown back in the form */
  typed: string;
  fieldErrors: Record<string, string>;
  formError: string | null;
  sent: boolean;
};

/**
 * Phone sign-in in two posted steps (no JavaScript needed): the number, for which the API sends a
 * 6-digit code by SMS (the same answer whether or not an account exists), then the code, which signs in
 * the account of that verified number or creates one. A new account is asked its name next.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get('redirectTo'));
  const typed = String(form.get('phone') ?? '').trim();
  const base = { typed, fieldErrors: {}, formError: null, sent: false };
  const { phone, error } = validateOtpPhone(typed);
  if (!phone)
    return reply<ActionData>({ ...base, step: 'phone', phone: '', fieldErrors: { phone: error } }, 400);

  if (form.get('intent') !== 'verify') {
    const sent = await requestCode(request, phone);
    if (sent.ok) return reply<ActionData>({ ...base, step: 'code', phone, sent: true });
    // too many codes: the last ones may still work, so the code step stays open with the reason
    const step = sent.code === 'TOO_MANY_CODES' ? 'code' : 'phone';
    return reply<ActionData>(
      { ...base, step, phone, fieldErrors: sent.fieldErrors, formError: sent.formError },
      sent.status,
    );
  }

  const code = validateOtpCode(form.get('code'));
  if (!code.code)
    return reply<ActionData>({ ...base, step: 'code', phone, fieldErrors: { code: code.error } }, 400);
  const verified = await verifyCode(request, phone, code.code);
  if (!verified.ok)
    return reply<ActionData>(
      { ...base, step: 'code', phone, fieldErrors: verified.fieldErrors, formError: verified.formError },
      verified.status,
    );
  const headers = new Headers({ 'Set-Cookie': sessionCookie(verified.token, request) });
  if (verified.role === 'admin') return redirect(`${adminUrl}/dashboard`, { headers });
  const next = await afterSignIn(request, verified.token, headers, redirectTo);
  // a new account (or one still without a name) says its name next, then goes on
  if (verified.needsName) return redirect(`/welcome?redirectTo=${encodeURIComponent(next)}`, { headers });
  return redirect(next, { headers });
}

export default function PhoneSignIn() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const { t } = useShop();
  const busy = useNavigation().state === 'submitting';
  const onCode = data?.step === 'code';
  return (
    <section className="acc-auth">
      <h1>{t('otp.title')}</h1>
      {onCode ? (
        <>
          {data.sent ? (
            <p className="acc-success" role="status" data-testid="otp-sent">
              {t('otp.sent', { phone: data.typed || data.phone })}
            </p>
          ) : null}
          <Form method="post" noValidate className="acc-form" data-testid="otp-code-form">
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <input type="hidden" name="phone" value={data.phone} />
            <input type="hidden" name="intent" value="verify" />
            <FormErrors formError={data.formError} fieldErrors={data.fieldErrors} answer={data} />
            <label className="acc-field">
              <span>{t('otp.code')}</span>
              <input
                id="field-code"
                name="code"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                required
                aria-invalid={data.fieldErrors.code ? true : undefined}
                aria-describedby={data.fieldErrors.code ? 'code-error code-hint' : 'code-hint'}
              />
              <small id="code-hint" className="acc-muted">
                {t('otp.codeHint')}
              </small>
              {data.fieldErrors.code ? (
                <small id="code-error" className="acc-error" role="alert">
                  {t(data.fieldErrors.code)}
                </small>
              ) : null}
            </label>
            <button type="submit" className="button" disabled={busy}>
              {busy ? t('auth.signingIn') : t('otp.verify')}
            </button>
          </Form>
          <Form method="post" className="acc-inline-form">
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <input type="hidden" name="phone" value={data.phone} />
            <input type="hidden" name="intent" value="request" />
            <button type="submit" className="acc-link-button" disabled={busy}>
              {t('otp.resend')}
            </button>
          </Form>
          <p>
            <Link to={`/signin/phone?redirectTo=${encodeURIComponent(redirectTo)}`}>
              {t('otp.changeNumber')}
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" noValidate className="acc-form" data-testid="otp-phone-form">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <input type="hidden" name="intent" value="request" />
          <p>{t('otp.intro')}</p>
          <FormErrors formError={data?.formError} fieldErrors={data?.fieldErrors} answer={data} />
          <Field
            name="phone"
            type="tel"
            label={t('otp.phone')}
            autoComplete="tel"
            defaultValue={data?.typed}
            hint={t('checkout.phoneHint')}
            error={data?.fieldErrors.phone}
          />
          <button type="submit" className="button" disabled={busy}>
            {busy ? t('otp.sending') : t('otp.send')}
          </button>
        </Form>
      )}
      <p>
        <Link to={`/signin?redirectTo=${encodeURIComponent(redirectTo)}`}>{t('otp.useEmail')}</Link>
      </p>
    </section>
  );
}
