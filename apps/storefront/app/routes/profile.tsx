import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { apiFor } from '../session.server';
import { settle } from '../account/api.server';
import { requireUser } from '../account/auth/auth.server';
import { Field, FormError, Toast, message } from '../account/components';
import { FormErrors } from '../components/FormErrors';
import { OrderList } from '../account/orders/OrderList';
import { cancelOrder, loadMyOrders } from '../account/orders/orders.server';
import { validateProfile } from '../account/profile/validation';
import { addressAction, changePassword, type ProfileSectionData } from '../account/profile/actions.server';
import { AddressBook, PasswordSection } from '../account/profile/ProfileSections';
import { hasErrors, serverFieldErrors, type FieldErrors } from '../account/forms';
import { reply } from '../account/reply.server';
import { codeKey } from '../apiMessages';
import accountStyles from '../account.css?url';
import { AMHARIC_LANGUAGE_NAME } from '../language';
import { titleMeta, useShop } from '../shop-context';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'profile.title')];

export async function loader({ request }: LoaderFunctionArgs) {
  const sessionUser = await requireUser(request);
  const url = new URL(request.url);
  const tab = url.searchParams.get('tab') === 'orders' ? 'orders' : 'profile';
  const editing = url.searchParams.get('edit') === '1';
  const [profile, orders] = await Promise.all([
    settle(apiFor(request).GET('/api/users/profile')),
    tab === 'orders' ? loadMyOrders(request) : Promise.resolve([]),
  ]);
  // the address being edited ('new': the add form), from `?address=`
  const address = url.searchParams.get('address');
  const addressEdit = address && /^(new|\d{1,9})$/.test(address) ? address : null;
  return { user: profile.ok ? profile.data.user : sessionUser, tab, editing, orders, addressEdit };
}

type ActionData = {
  ok: boolean;
  message?: string;
  /** The message's values (e.g. the order's status in a refused cancellation). */
  params?: Record<string, string | number>;
  fieldErrors?: FieldErrors;
  values?: Record<string, string>;
  /** A phone verification code was sent: the page asks for it. */
  codeSent?: boolean;
  codeError?: string;
};

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  if (form.get('intent') === 'cancel') {
    const result = await cancelOrder(apiFor(request), String(form.get('orderId') ?? ''));
    return reply(
      { ok: result.ok, message: result.ok ? 'orders.cancelled' : result.message, params: result.params },
      result.ok ? 200 : 400,
    );
  }
  const intent = form.get('intent');
  if (intent === 'send-code' || intent === 'verify-code') return phoneAction(request, form);
  if (intent === 'password') return changePassword(request, form);
  if (typeof intent === 'string' && intent.startsWith('address-'))
    return addressAction(request, form, intent);
  const { input, errors } = validateProfile(form);
  const language = form.get('language');
  if (hasErrors(errors)) return reply({ ok: false, fieldErrors: errors, values: input }, 400);
  const result = await settle(
    apiFor(request).PUT('/api/users/profile', {
      body: {
        name: input.name,
        ...(input.email ? { email: input.email } : {}),
        phone: input.phone || null,
        // the language of the shop's messages (docs/decisions/0077-links-and-message-language.md)
        ...(language === 'en' || language === 'am' ? { language } : {}),
      },
    }),
  );
  if (!result.ok) {
    return reply(
      {
        ok: false,
        message: codeKey(result.code) ?? 'profile.updateFailed',
        fieldErrors: serverFieldErrors(result.errors),
        values: input,
      },
      result.status,
    );
  }
  return reply({ ok: true, message: 'profile.updated' });
}

/** Verifying the profile phone: send a code by SMS, then check it (both through the API). */
async function phoneAction(request: Request, form: FormData) {
  if (form.get('intent') === 'send-code') {
    const sent = await settle(apiFor(request).POST('/api/auth/phone/send-code'));
    return sent.ok
      ? reply<ActionData>({ ok: true, message: 'profile.codeSent', codeSent: true })
      : reply<ActionData>({ ok: false, message: sent.key || 'profile.verifyFailed' }, sent.status);
  }
  const code = String(form.get('code') ?? '').trim();
  if (!/^\d{6}$/.test(code))
    return reply<ActionData>({ ok: false, codeSent: true, codeError: 'recover.codeInvalid' }, 400);
  const checked = await settle(apiFor(request).POST('/api/auth/phone/verify', { body: { code } }));
  return checked.ok
    ? reply<ActionData>({ ok: true, message: 'profile.phoneVerified' })
    : reply<ActionData>(
        { ok: false, codeSent: true, message: checked.key || 'profile.verifyFailed' },
        checked.status,
      );
}

export default function Profile() {
  const { user, tab, editing, orders, addressEdit } = useLoaderData<typeof loader>();
  const answer = useActionData<ActionData | ProfileSectionData>();
  // the password and address-book forms answer with their own shape (`form`); the rest is the profile's
  const section = answer && 'form' in answer ? answer : undefined;
  const data = section ? undefined : (answer as ActionData | undefined);
  const { t, lang } = useShop();
  const busy = useNavigation().state !== 'idle';
  const showForm = editing || (data && !data.ok && data.fieldErrors);
  const values = data?.values ?? { name: user.name, email: user.email ?? '', phone: user.phone ?? '' };
  return (
    <section className="acc-page">
      <h1>{t('profile.title')}</h1>
      <nav className="acc-tabs" aria-label={t('profile.title')}>
        <Link aria-current={tab === 'profile' ? 'page' : undefined} to="/profile">
          {t('profile.tabProfile')}
        </Link>
        <Link aria-current={tab === 'orders' ? 'page' : undefined} to="/profile?tab=orders">
          {t('profile.tabOrders')}
        </Link>
        <Link className="button" to="/wishlist">
          {t('profile.wishlist')}
        </Link>
      </nav>
      {data?.message ? (
        <Toast
          kind={data.ok ? 'success' : 'error'}
          text={message(t, data.message, data.params)}
          stamp={data}
        />
      ) : null}
      {section?.ok && section.message ? (
        <Toast kind="success" text={message(t, section.message)} stamp={section} />
      ) : null}
      {tab === 'orders' ? (
        orders === null ? (
          <FormError text="orders.fetchFailed" />
        ) : (
          <OrderList orders={orders} />
        )
      ) : showForm && !data?.ok ? (
        <Form method="post" noValidate className="acc-form">
          <FormErrors fieldErrors={data?.fieldErrors} answer={data} />
          {user.email ? null : <input type="hidden" name="emailOptional" value="1" />}
          <Field
            name="name"
            label={t('auth.name')}
            defaultValue={values.name}
            error={data?.fieldErrors?.name}
          />
          <Field
            name="email"
            type="email"
            label={user.email ? t('auth.email') : t('checkout.emailOptional')}
            required={Boolean(user.email)}
            defaultValue={values.email}
            error={data?.fieldErrors?.email}
          />
          <Field
            name="phone"
            type="tel"
            label={t('profile.phone')}
            required={false}
            defaultValue={values.phone}
            error={data?.fieldErrors?.phone}
          />
          <label className="acc-field">
            <span>{t('profile.messagesLanguage')}</span>
            <select name="language" defaultValue={user.language ?? lang} data-testid="profile-language">
              <option value="en" lang="en">
                English
              </option>
              <option value="am" lang="am">
                {AMHARIC_LANGUAGE_NAME}
              </option>
            </select>
          </label>
          <p className="acc-actions">
            <button type="submit" className="button" disabled={busy}>
              {t('profile.save')}
            </button>
            <Link to="/profile">{t('profile.cancel')}</Link>
          </p>
        </Form>
      ) : (
        <div>
          <dl className="acc-order-facts">
            <dt>{t('auth.name')}</dt>
            <dd data-testid="profile-name">{data?.ok && data.values ? data.values.name : user.name}</dd>
            <dt>{t('auth.email')}</dt>
            <dd>{user.email || '—'}</dd>
            <dt>{t('profile.phone')}</dt>
            <dd>
              {user.phone || '—'}
              {user.phone ? (
                <span className="acc-phone-state" data-testid="phone-state">
                  {' '}
                  ({t(user.phoneVerified ? 'profile.verified' : 'profile.notVerified')})
                </span>
              ) : null}
            </dd>
            <dt>{t('profile.messagesLanguage')}</dt>
            <dd data-testid="profile-messages-language">
              {(user.language ?? lang) === 'am' ? AMHARIC_LANGUAGE_NAME : 'English'}
            </dd>
          </dl>
          {user.phone && !user.phoneVerified ? (
            <div className="acc-form">
              <p>{t('profile.verifyHelp')}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="send-code" />
                <button type="submit" className="button" disabled={busy}>
                  {t('profile.sendCode')}
                </button>
              </Form>
              {data?.codeSent ? (
                <Form method="post" noValidate>
                  <input type="hidden" name="intent" value="verify-code" />
                  <Field
                    name="code"
                    label={t('profile.code')}
                    autoComplete="one-time-code"
                    error={data.codeError}
                  />
                  <button type="submit" className="button" disabled={busy}>
                    {t('profile.confirmCode')}
                  </button>
                </Form>
              ) : null}
            </div>
          ) : null}
          <Link className="button" to="/profile?edit=1">
            {t('profile.edit')}
          </Link>
          <AddressBook
            addresses={'addresses' in user && Array.isArray(user.addresses) ? user.addresses : []}
            editing={section?.ok ? null : addressEdit}
            data={section}
          />
          <PasswordSection data={section} />
        </div>
      )}
    </section>
  );
}
