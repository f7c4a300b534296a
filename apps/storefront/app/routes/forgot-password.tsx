import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { settle } from '../account/api.server';
import { guestOnly } from '../account/auth/auth.server';
import { Field } from '../account/components';
import { FormErrors } from '../components/FormErrors';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';
import { apiFor } from '../session.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'recover.forgotTitle')];
export const loader = ({ request }: LoaderFunctionArgs) => guestOnly(request);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type ActionData = {
  sent: boolean;
  email: string;
  channel: 'email' | 'sms';
  fieldError?: string;
  formError?: string;
};

/** Asks the API for a reset link (email) or code (SMS); the answer is the same whether or not the account exists. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const email = String(form.get('email') ?? '').trim();
  const channel = form.get('channel') === 'sms' ? 'sms' : 'email';
  if (!email)
    return reply<ActionData>({ sent: false, email, channel, fieldError: 'auth.emailRequired' }, 400);
  if (!EMAIL.test(email))
    return reply<ActionData>({ sent: false, email, channel, fieldError: 'auth.emailInvalid' }, 400);
  const result = await settle(
    apiFor(request).POST('/api/auth/forgot-password', { body: { email, channel } }),
  );
  if (!result.ok) {
    return reply<ActionData>(
      { sent: false, email, channel, formError: result.key || 'recover.failed' },
      result.status,
    );
  }
  return reply<ActionData>({ sent: true, email, channel });
}

export default function ForgotPassword() {
  const data = useActionData<ActionData>();
  const { t } = useShop();
  const busy = useNavigation().state === 'submitting';
  const channel = data?.channel ?? 'email';
  return (
    <section className="acc-auth">
      <h1>{t('recover.forgotTitle')}</h1>
      {data?.sent ? (
        <>
          <p className="acc-success" role="status">
            {t('recover.sent')}
          </p>
          <p>
            <Link to={`/reset-password?email=${encodeURIComponent(data.email)}`}>
              {t('recover.haveCode')}
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" noValidate className="acc-form">
          <p>{t('recover.forgotIntro')}</p>
          <FormErrors
            formError={data?.formError}
            fieldErrors={data?.fieldError ? { email: data.fieldError } : null}
            answer={data}
          />
          <Field
            name="email"
            type="email"
            label={t('auth.email')}
            autoComplete="email"
            defaultValue={data?.email}
            error={data?.fieldError}
          />
          <fieldset className="acc-roles">
            <legend>{t('recover.how')}</legend>
            <label>
              <input type="radio" name="channel" value="email" defaultChecked={channel === 'email'} />{' '}
              {t('recover.byEmail')}
            </label>
            <label>
              <input type="radio" name="channel" value="sms" defaultChecked={channel === 'sms'} />{' '}
              {t('recover.bySms')}
            </label>
          </fieldset>
          <button type="submit" className="button" disabled={busy}>
            {busy ? t('recover.sending') : t('recover.send')}
          </button>
        </Form>
      )}
      <p>
        <Link to="/signin">{t('auth.signIn')}</Link>
      </p>
    </section>
  );
}
