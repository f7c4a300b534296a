import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { useState } from 'react';
import { settle } from '../account/api.server';
import { adminUrl, afterSignIn, guestOnly } from '../account/auth/auth.server';
import { Field, PasswordStrength } from '../account/components';
import { FormErrors } from '../components/FormErrors';
import { safeRedirectPath } from '../account/auth/intent';
import { validateSignUp } from '../account/auth/validation';
import { hasErrors, serverFieldErrors, type FieldErrors } from '../account/forms';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { pageLanguage } from '../language';
import { titleMeta, useShop } from '../shop-context';
import { apiFor, sessionCookie } from '../session.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'auth.signUp')];

/** Sign-in and sign-up are for guests: a signed-in visitor goes where they were heading. */
export const loader = ({ request }: LoaderFunctionArgs) => guestOnly(request);

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get('redirectTo'));
  const { input, errors } = validateSignUp(form);
  const values = { name: input.name, email: input.email };
  if (hasErrors(errors)) return reply({ fieldErrors: errors, formError: null, values }, 400);
  const body = {
    name: input.name,
    email: input.email,
    password: input.password,
    confirmPassword: input.confirmPassword || input.password,
    // the account's language: the page's (the shop's messages to it use it)
    language: pageLanguage(request),
  };
  // customers only: admins register with the admin key on the back office's sign-in page
  const result = await settle(apiFor(request).POST('/api/auth/register', { body }));
  if (!result.ok || !result.data?.token) {
    const fieldErrors: FieldErrors = result.ok ? {} : serverFieldErrors(result.errors);
    const formError = (!result.ok && result.key) || 'auth.signUpFailed';
    return reply({ fieldErrors, formError, values }, result.ok ? 502 : result.status);
  }
  const headers = new Headers({ 'Set-Cookie': sessionCookie(result.data.token, request) });
  if (result.data.user.role === 'admin') return redirect(`${adminUrl}/dashboard`, { headers });
  return redirect(await afterSignIn(request, result.data.token, headers, redirectTo), { headers });
}

type ActionData = {
  fieldErrors: FieldErrors;
  formError: string | null;
  values: { name: string; email: string };
};

export default function SignUp() {
  const { redirectTo, staffSignIn } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const { t } = useShop();
  const [password, setPassword] = useState('');
  const busy = useNavigation().state === 'submitting';
  return (
    <section className="acc-auth">
      <h1>{t('auth.signUpTitle')}</h1>
      <Form method="post" noValidate className="acc-form acc-signup">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormErrors formError={data?.formError} fieldErrors={data?.fieldErrors} answer={data} />
        <Field
          name="name"
          label={t('auth.name')}
          autoComplete="name"
          defaultValue={data?.values.name}
          error={data?.fieldErrors.name}
        />
        <Field
          name="email"
          type="email"
          label={t('auth.email')}
          autoComplete="email"
          defaultValue={data?.values.email}
          error={data?.fieldErrors.email}
        />
        <Field
          name="password"
          type="password"
          label={t('auth.password')}
          autoComplete="new-password"
          hint={t('auth.passwordRule')}
          error={data?.fieldErrors.password}
          onChange={setPassword}
        />
        <PasswordStrength password={password} />
        <div className="acc-customer-only">
          <Field
            name="confirmPassword"
            type="password"
            label={t('auth.confirmPassword')}
            autoComplete="new-password"
            required={false}
            error={data?.fieldErrors.confirmPassword}
          />
        </div>
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('auth.creatingAccount') : t('auth.signUp')}
        </button>
      </Form>
      <p className="acc-phone-way">
        <Link to={`/signin/phone?redirectTo=${encodeURIComponent(redirectTo)}`} data-testid="use-phone">
          {t('otp.usePhone')}
        </Link>{' '}
        <span className="acc-muted">{t('otp.noEmailNeeded')}</span>
      </p>
      <p>
        {t('auth.haveAccount')}{' '}
        <Link to={`/signin?redirectTo=${encodeURIComponent(redirectTo)}`}>{t('auth.signIn')}</Link>
      </p>
      <p className="acc-staff">
        <a href={staffSignIn}>{t('auth.staffSignIn')}</a>
      </p>
    </section>
  );
}
