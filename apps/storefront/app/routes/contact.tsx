import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useNavigation } from '@remix-run/react';
import { Form } from '../components/Localized';
import { FormErrors } from '../components/FormErrors';
import { useRef, useState } from 'react';
import {
  CONTACT_FIELDS,
  CONTACT_MAX_LENGTH,
  readContactForm,
  validateContact,
  type ContactField,
  type ContactForm,
} from '../contact';
import { pageLanguage } from '../language';
import { submitContact } from '../products.server';
import { codeKey, isKnownKey } from '../apiMessages';
import { useCommitEffect } from '../components/useCommitEffect';
import { titleMeta, useShop } from '../shop-context';

export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'nav.contact')];

type ActionResult =
  | { sent: true }
  | {
      sent: false;
      values: ContactForm;
      fieldErrors: Partial<Record<ContactField, string>>;
      formError?: string;
      serverMessage?: string;
    };

/** Validates on the server (works without JavaScript) and forwards to the API. */
export async function action({ request }: ActionFunctionArgs) {
  const values = readContactForm(await request.formData());
  const fieldErrors = validateContact(values);
  if (Object.keys(fieldErrors).length) {
    return json({ sent: false, values, fieldErrors } satisfies ActionResult, { status: 400 });
  }
  const trimmed = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, values[f].trim()])) as ContactForm;
  // the page's language goes with the message: the shop's reply is written in it (docs/decisions/0081)
  const message = { ...trimmed, language: pageLanguage(request) };
  const result = await submitContact(request, message);
  if (result.ok) return json({ sent: true } satisfies ActionResult);
  // A client mistake is worded by its code (`errors.<CODE>`, en and am); anything else gets the page's fallback.
  const serverMessage = result.status >= 400 && result.status < 500 ? codeKey(result.code) : undefined;
  return json(
    {
      sent: false,
      values,
      fieldErrors: {},
      formError: 'errors.sendMessage',
      serverMessage,
    } satisfies ActionResult,
    { status: result.status >= 400 && result.status < 500 ? result.status : 502 },
  );
}

const FIELD_LABELS: Record<ContactField, string> = {
  name: 'contact.name',
  email: 'contact.email',
  subject: 'contact.subject',
  message: 'contact.message',
};

export default function ContactPage() {
  const { t } = useShop();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formAction === '/contact';
  const formRef = useRef<HTMLFormElement>(null);
  const failed = result && !result.sent ? result : undefined;
  // With JavaScript the same checks run before sending, so a mistake never costs a round trip.
  const [clientErrors, setClientErrors] = useState<Partial<Record<ContactField, string>> | null>(null);
  // emptied as the confirmation appears, not a paint later
  useCommitEffect(() => {
    setClientErrors(null);
    if (result?.sent) formRef.current?.reset();
  }, [result]);
  const fieldErrors = clientErrors ?? failed?.fieldErrors ?? {};

  return (
    <section className="static-page contact-page" aria-labelledby="contact-title">
      <h1 id="contact-title">{t('contact.title')}</h1>
      <p className="lead">{t('contact.intro')}</p>
      <div className="contact-grid">
        <Form
          ref={formRef}
          method="post"
          noValidate
          className="contact-form"
          aria-describedby="contact-status"
          onSubmit={(e) => {
            const errors = validateContact(readContactForm(new FormData(e.currentTarget)));
            if (Object.keys(errors).length) {
              e.preventDefault();
              setClientErrors(errors);
              const first = CONTACT_FIELDS.find((f) => errors[f]);
              if (first) e.currentTarget.querySelector<HTMLElement>(`#contact-${first}`)?.focus();
            } else setClientErrors(null);
          }}
        >
          <FormErrors
            fieldErrors={clientErrors ? null : failed?.fieldErrors}
            answer={failed}
            idOf={(name) => `contact-${name}`}
          />
          <div id="contact-status" role="status" aria-live="polite">
            {result?.sent && <p className="success">{t('contact.sent')}</p>}
            {failed?.formError && !clientErrors && (
              <p className="error" role="alert">
                {failed.serverMessage && isKnownKey(failed.serverMessage, t)
                  ? t(failed.serverMessage)
                  : t(failed.formError)}
              </p>
            )}
          </div>
          {CONTACT_FIELDS.map((field) => {
            const error = fieldErrors[field];
            const id = `contact-${field}`;
            const common = {
              id,
              name: field,
              required: true,
              maxLength: CONTACT_MAX_LENGTH[field],
              defaultValue: failed?.values[field] ?? '',
              'aria-invalid': error ? true : undefined,
              'aria-describedby': error ? `${id}-error` : undefined,
            };
            return (
              <div key={field} className="field">
                <label htmlFor={id}>{t(FIELD_LABELS[field])}</label>
                {field === 'message' ? (
                  <textarea rows={6} {...common} />
                ) : (
                  <input
                    type={field === 'email' ? 'email' : 'text'}
                    autoComplete={field === 'name' ? 'name' : field === 'email' ? 'email' : 'off'}
                    {...common}
                  />
                )}
                {error && (
                  <p id={`${id}-error`} className="field-error">
                    {t(error)}
                  </p>
                )}
              </div>
            );
          })}
          <button type="submit" className="button" disabled={sending}>
            {sending ? t('contact.sending') : t('contact.send')}
          </button>
        </Form>
        <aside className="contact-details" aria-labelledby="contact-details-title">
          <h2 id="contact-details-title">{t('footer.contactTitle')}</h2>
          <address>
            <p>{t('footer.address')}</p>
            <p>
              <a href="tel:+251911000000">+251 911 000 000</a>
            </p>
            <p>
              <a href="mailto:hello@beauty.et">hello@beauty.et</a>
            </p>
          </address>
          <h3>{t('footer.hoursTitle')}</h3>
          <p>{t('footer.hours')}</p>
          <p>{t('footer.delivery')}</p>
        </aside>
      </div>
    </section>
  );
}
