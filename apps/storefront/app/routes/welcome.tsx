import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form } from '../components/Localized';
import { settle } from '../account/api.server';
import { requireUser } from '../account/auth/auth.server';
import { safeRedirectPath } from '../account/auth/intent';
import { Field, FormError } from '../account/components';
import { serverFieldErrors, text, type FieldErrors } from '../account/forms';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { titleMeta, useShop } from '../shop-context';
import { apiFor } from '../session.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'otp.nameTitle')];

/** 'What's your name?': the step after a phone sign-in created an account (it has a number, no name). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'));
  return { name: user.name ?? '', redirectTo };
}

type ActionData = { fieldErrors: FieldErrors; formError: string | null; name: string };

/** Saved with the profile update every account has (PUT /api/users/profile, the name only). */
export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get('redirectTo'));
  const name = text(form, 'name');
  if (!name)
    return reply<ActionData>({ fieldErrors: { name: 'auth.nameRequired' }, formError: null, name }, 400);
  if (name.length > 100)
    return reply<ActionData>({ fieldErrors: { name: 'checkout.nameTooLong' }, formError: null, name }, 400);
  const saved = await settle(apiFor(request).PUT('/api/users/profile', { body: { name } }));
  if (!saved.ok)
    return reply<ActionData>(
      {
        fieldErrors: serverFieldErrors(saved.errors),
        formError: saved.key ?? 'profile.updateFailed',
        name,
      },
      saved.status,
    );
  return redirect(redirectTo);
}

export default function Welcome() {
  const { name, redirectTo } = useLoaderData<typeof loader>();
  const data = useActionData<ActionData>();
  const { t } = useShop();
  const busy = useNavigation().state === 'submitting';
  return (
    <section className="acc-auth">
      <h1>{t('otp.nameTitle')}</h1>
      <p>{t('otp.nameIntro')}</p>
      <Form method="post" noValidate className="acc-form" data-testid="name-form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError text={data?.formError} />
        <Field
          name="name"
          label={t('auth.name')}
          autoComplete="name"
          defaultValue={data?.name ?? name}
          error={data?.fieldErrors.name}
        />
        <button type="submit" className="button" disabled={busy}>
          {t('otp.nameSave')}
        </button>
      </Form>
    </section>
  );
}
