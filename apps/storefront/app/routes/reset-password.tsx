import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { isStrongEnough } from '@shop/shared';
import { useState } from 'react';
import { settle } from '../account/api.server';
import { guestOnly } from '../account/auth/auth.server';
import { Field, PasswordStrength } from '../account/components';
import { FormErrors } from '../components/FormErrors';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';
import { apiFor } from '../session.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'recover.resetTitle')];

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/** The link's token (emailed), or the email to pair with an SMS code. */
export async function loader({ request }: LoaderFunctionArgs) {
  await guestOnly(request);
  const url = new URL(request.url);
  const token = url.searchParams.get('token') ?? '';
  return { token: TOKEN.test(token) ? token : '', email: url.searchParams.get('email') ?? '' };
}

type ActionData = { fieldErrors: Record<string, string>; formError?: string; email: string };

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const token = String(form.get('token') ?? '');
  const email = String(form.get('email') ?? '').trim();
  const code = String(form.get('code') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const confirmPassword = String(form.get('confirmPassword') ?? '');
  const fieldErrors: Record<string, string> = {};
  if (!token) {
    if (!email) fieldErrors.email = 'auth.emailRequired';
    if (!/^\d{6}$/.test(code)) fieldErrors.code = 'recover.codeInvalid';
  }
  if (!password) fieldErrors.password = 'auth.passwordRequired';
  else if (!isStrongEnough(password)) fieldErrors.password = 'auth.weakPassword';
  if (password && confirmPassword !== password) fieldErrors.confirmPassword = 'auth.passwordsMismatch';
  if (Object.keys(fieldErrors).length) return reply<ActionData>({ fieldErrors, email }, 400);
  const body = token ? { token, password, confirmPassword } : { email, code, password, confirmPassword };
  const result = await settle(apiFor(request).POST('/api/auth/reset-password', { body }));
  if (!result.ok) {
    const formError = result.code === 'RESET_INVALID' ? 'recover.invalid' : result.key || 'recover.failed';
    return reply<ActionData>({ fieldErrors: {}, formError, email }, result.status);
  }
  return redirect('/signin?reset=1');
}

export default function ResetPassword() {
  const { token, email } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const { t } = useShop();
  const busy = useNavigation().state === 'submitting';
  const [password, setPassword] = useState('');
  return (
    <section className="acc-auth">
      <h1>{t('recover.resetTitle')}</h1>
      <Form method="post" noValidate className="acc-form">
        <FormErrors formError={data?.formError} fieldErrors={data?.fieldErrors} answer={data} />
        {token ? (
          <input type="hidden" name="token" value={token} />
        ) : (
          <>
            <Field
              name="email"
              type="email"
              label={t('auth.email')}
              autoComplete="email"
              defaultValue={data?.email ?? email}
              error={data?.fieldErrors.email}
            />
            <Field
              name="code"
              label={t('recover.code')}
              autoComplete="one-time-code"
              error={data?.fieldErrors.code}
            />
          </>
        )}
        <Field
          name="password"
          type="password"
          label={t('recover.newPassword')}
          autoComplete="new-password"
          hint={t('auth.passwordRule')}
          onChange={setPassword}
          error={data?.fieldErrors.password}
        />
        <PasswordStrength password={password} />
        <Field
          name="confirmPassword"
          type="password"
          label={t('recover.confirmPassword')}
          autoComplete="new-password"
          error={data?.fieldErrors.confirmPassword}
        />
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('recover.saving') : t('recover.save')}
        </button>
      </Form>
      {data?.formError === 'recover.invalid' ? (
        <p>
          <Link to="/forgot-password">{t('recover.askAgain')}</Link>
        </p>
      ) : null}
    </section>
  );
}
