import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { settle } from '../account/api.server';
import { adminUrl, afterSignIn, guestOnly } from '../account/auth/auth.server';
import { Field } from '../account/components';
import { FormErrors } from '../components/FormErrors';
import { safeRedirectPath, signInReasonOf } from '../account/auth/intent';
import { validateSignIn } from '../account/auth/validation';
import { hasErrors, serverFieldErrors, type FieldErrors } from '../account/forms';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';
import { apiFor, sessionCookie } from '../session.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'auth.signIn')];

/** Sign-in and sign-up are for guests: a signed-in visitor goes where they were heading. */
export const loader = ({ request }: LoaderFunctionArgs) => guestOnly(request);

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get('redirectTo'));
  const { input, errors } = validateSignIn(form);
  const values = { email: input.email };
  if (hasErrors(errors)) return reply({ fieldErrors: errors, formError: null, values }, 400);
  // customers' form: no role is asked for; an admin who signs in here is sent to the back office
  const result = await settle(
    apiFor(request).POST('/api/auth/login', { body: { email: input.email, password: input.password } }),
  );
  if (!result.ok || !result.data?.token) {
    const fieldErrors: FieldErrors = result.ok ? {} : serverFieldErrors(result.errors);
    const formError = (!result.ok && result.key) || 'auth.signInFailed';
    return reply({ fieldErrors, formError, values }, result.ok ? 502 : result.status);
  }
  const headers = new Headers({ 'Set-Cookie': sessionCookie(result.data.token, request) });
  if (result.data.user.role === 'admin') return redirect(`${adminUrl}/dashboard`, { headers });
  return redirect(await afterSignIn(request, result.data.token, headers, redirectTo), { headers });
}

type ActionData = {
  fieldErrors: FieldErrors;
  formError: string | null;
  values: { email: string };
};

export default function SignIn() {
  const { redirectTo, staffSignIn } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const { t } = useShop();
  const busy = useNavigation().state === 'submitting';
  const [search] = useSearchParams();
  return (
    <section className="acc-auth">
      <h1>{t('auth.signInTitle')}</h1>
      {search.get('reset') === '1' ? (
        <p className="acc-success" role="status">
          {t('recover.done')}
        </p>
      ) : null}
      {signInReasonOf(search.get('reason')) === 'wishlist' ? (
        <p className="acc-note" role="status" data-testid="signin-reason">
          {t('auth.reasonWishlist')}
        </p>
      ) : null}
      <Form method="post" noValidate className="acc-form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormErrors formError={data?.formError} fieldErrors={data?.fieldErrors} answer={data} />
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
          autoComplete="current-password"
          error={data?.fieldErrors.password}
        />
        <p className="acc-forgot">
          <Link to="/forgot-password">{t('recover.forgotLink')}</Link>
        </p>
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('auth.signingIn') : t('auth.signIn')}
        </button>
      </Form>
      <p className="acc-phone-way">
        <Link to={`/signin/phone?redirectTo=${encodeURIComponent(redirectTo)}`} data-testid="use-phone">
          {t('otp.usePhone')}
        </Link>
      </p>
      <p>
        {t('auth.noAccount')}{' '}
        <Link to={`/signup?redirectTo=${encodeURIComponent(redirectTo)}`}>{t('auth.signUp')}</Link>
      </p>
      <p className="acc-staff">
        <a href={staffSignIn}>{t('auth.staffSignIn')}</a>
      </p>
    </section>
  );
}
