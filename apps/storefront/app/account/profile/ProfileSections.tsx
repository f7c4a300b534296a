import { useNavigation } from '@remix-run/react';
import { Form, Link } from '../../components/Localized';
import { ETHIOPIAN_REGIONS, findEthiopianRegion, regionName } from '@shop/shared';
import { useState } from 'react';
import { Field, PasswordStrength, message } from '../components';
import { FormErrors } from '../../components/FormErrors';
import { useShop } from '../../shop-context';
import type { ProfileSectionData } from './actions.server';

/**
 * The profile's password change: current, new (the shared rule shown before typing, the live strength)
 * and confirm; 'Forgot password?' beside it. Every other session ends; this one stays signed in.
 */
export function PasswordSection({ data }: { data?: ProfileSectionData }) {
  const { t } = useShop();
  const busy = useNavigation().state !== 'idle';
  const [password, setPassword] = useState('');
  const mine = data?.form === 'password' ? data : undefined;
  return (
    <section className="acc-section" aria-labelledby="password-title">
      <h2 id="password-title">{t('profile.passwordTitle')}</h2>
      <p className="acc-muted">{t('profile.otherSessions')}</p>
      {/* a success resets the fields (the key changes with each answer) */}
      <Form method="post" noValidate className="acc-form" key={mine?.ok ? JSON.stringify(mine) : 'password'}>
        <input type="hidden" name="intent" value="password" />
        <FormErrors
          formError={mine && !mine.ok && !Object.keys(mine.fieldErrors ?? {}).length ? mine.message : null}
          fieldErrors={mine && !mine.ok ? mine.fieldErrors : null}
          answer={mine}
        />
        <Field
          name="currentPassword"
          type="password"
          label={t('profile.currentPassword')}
          autoComplete="current-password"
          error={mine?.fieldErrors?.currentPassword}
        />
        <p className="acc-forgot">
          <Link to="/forgot-password">{t('recover.forgotLink')}</Link>
        </p>
        <Field
          name="newPassword"
          type="password"
          label={t('profile.newPassword')}
          autoComplete="new-password"
          hint={t('auth.passwordRule')}
          onChange={setPassword}
          error={mine?.fieldErrors?.newPassword}
        />
        <PasswordStrength password={password} />
        <Field
          name="confirmPassword"
          type="password"
          label={t('profile.confirmPassword')}
          autoComplete="new-password"
          error={mine?.fieldErrors?.confirmPassword}
        />
        <button type="submit" className="button" disabled={busy}>
          {t('profile.changePassword')}
        </button>
      </Form>
    </section>
  );
}

export interface SavedAddress {
  id: number;
  street: string;
  city: string;
  state: string;
  zipCode?: string;
  phone?: string;
  landmark?: string;
  isDefault?: boolean;
}

/** One line of an address in the page's language (region by its name in that language). */
export function addressLine(a: SavedAddress, lang: 'en' | 'am'): string {
  return [a.street, a.landmark, a.city, regionName(a.state, lang), a.zipCode, a.phone]
    .filter(Boolean)
    .join(', ');
}

/**
 * The address book: each address with 'Edit', 'Delete' and 'Make default' (the default marked), and a
 * form to add one or edit the chosen one (`?address=<id>`, `?address=new`), all working without JavaScript.
 */
export function AddressBook({
  addresses,
  editing,
  data,
}: {
  addresses: SavedAddress[];
  /** the address being edited, 'new', or nothing */
  editing: string | null;
  data?: ProfileSectionData;
}) {
  const { t, lang } = useShop();
  const busy = useNavigation().state !== 'idle';
  const mine = data?.form === 'address' ? data : undefined;
  const refused = mine && !mine.ok && mine.values ? mine : undefined;
  const formFor = refused ? (refused.addressId ?? 'new') : editing;
  const edited = formFor && formFor !== 'new' ? addresses.find((a) => String(a.id) === formFor) : undefined;
  const values: Record<string, string> = refused?.values ?? {
    phone: edited?.phone ?? '',
    state: edited?.state ?? '',
    city: edited?.city ?? '',
    street: edited?.street ?? '',
    landmark: edited?.landmark ?? '',
    zipCode: edited?.zipCode ?? '',
  };
  const errors = refused?.fieldErrors ?? {};
  return (
    <section className="acc-section" aria-labelledby="addresses-title">
      <h2 id="addresses-title">{t('profile.addressesTitle')}</h2>
      <FormErrors formError={mine && !mine.ok && !mine.values ? mine.message : null} answer={mine} />
      {addresses.length === 0 ? <p>{t('profile.noAddresses')}</p> : null}
      <ul className="acc-addresses">
        {addresses.map((a) => (
          <li
            key={a.id}
            className="acc-address"
            data-testid="address-card"
            data-default={a.isDefault ? 'true' : 'false'}
          >
            <p>
              {a.isDefault ? <span className="acc-default">{t('profile.isDefault')}</span> : null}{' '}
              <span data-testid="address-text">{addressLine(a, lang)}</span>
            </p>
            <Form method="post" className="acc-address-actions" preventScrollReset>
              <input type="hidden" name="addressId" value={a.id} />
              <Link
                to={`/profile?address=${a.id}#address-form`}
                aria-label={t('profile.editLabel', { street: a.street })}
                preventScrollReset
              >
                {t('profile.editThis')}
              </Link>
              {a.isDefault ? null : (
                <button
                  type="submit"
                  name="intent"
                  value="address-default"
                  className="acc-link-button"
                  aria-label={t('profile.makeDefaultLabel', { street: a.street })}
                  disabled={busy}
                >
                  {t('profile.makeDefault')}
                </button>
              )}
              <button
                type="submit"
                name="intent"
                value="address-delete"
                className="acc-link-button"
                aria-label={t('profile.deleteLabel', { street: a.street })}
                disabled={busy}
              >
                {t('profile.deleteAddress')}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      {formFor && (formFor === 'new' || edited) ? (
        <Form
          method="post"
          noValidate
          className="acc-form"
          id="address-form"
          key={`${formFor}-${JSON.stringify(refused ?? {})}`}
          aria-labelledby="address-form-title"
        >
          <h3 id="address-form-title">{edited ? t('profile.editAddress') : t('profile.newAddress')}</h3>
          <input type="hidden" name="intent" value="address-save" />
          <FormErrors fieldErrors={errors} answer={refused} />
          {edited ? <input type="hidden" name="addressId" value={edited.id} /> : null}
          <input type="hidden" name="country" value="Ethiopia" />
          <Field
            name="phone"
            type="tel"
            label={t('checkout.phone')}
            autoComplete="tel"
            defaultValue={values.phone}
            hint={t('checkout.phoneHint')}
            error={errors.phone}
          />
          <label className="acc-field">
            <span>{t('checkout.region')}</span>
            <select
              id="field-state"
              name="state"
              defaultValue={findEthiopianRegion(values.state)?.en ?? ''}
              required
              autoComplete="address-level1"
              aria-invalid={errors.state ? true : undefined}
              aria-describedby={errors.state ? 'address-state-error' : undefined}
            >
              <option value="">{t('checkout.chooseRegion')}</option>
              {ETHIOPIAN_REGIONS.map((r) => (
                <option key={r.code} value={r.en}>
                  {lang === 'am' ? r.am : r.en}
                </option>
              ))}
            </select>
            {errors.state ? (
              <small id="address-state-error" className="acc-error" role="alert">
                {message(t, errors.state)}
              </small>
            ) : null}
          </label>
          <Field
            name="city"
            label={t('checkout.city')}
            autoComplete="address-level2"
            defaultValue={values.city}
            error={errors.city}
          />
          <Field
            name="street"
            label={t('checkout.street')}
            autoComplete="street-address"
            defaultValue={values.street}
            error={errors.street}
          />
          <Field
            name="landmark"
            label={t('checkout.landmark')}
            required={false}
            defaultValue={values.landmark}
            hint={t('checkout.landmarkHint')}
            error={errors.landmark}
          />
          <Field
            name="zipCode"
            label={t('checkout.zipCodeOptional')}
            required={false}
            autoComplete="postal-code"
            defaultValue={values.zipCode}
            error={errors.zipCode}
          />
          {edited?.isDefault ? null : (
            <label className="acc-check">
              <input type="checkbox" name="isDefault" /> {t('profile.useAsDefault')}
            </label>
          )}
          <p className="acc-actions">
            <button type="submit" className="button" disabled={busy}>
              {t('profile.saveAddress')}
            </button>
            <Link to="/profile" preventScrollReset>
              {t('profile.cancel')}
            </Link>
          </p>
        </Form>
      ) : (
        <Link className="button secondary" to="/profile?address=new#address-form" preventScrollReset>
          {t('profile.addAddress')}
        </Link>
      )}
    </section>
  );
}
