import { useEffect, useRef } from 'react';
import { useShop } from '../../shop-context';
import type { PaymentInit } from '@shop/api-client';

/** Chapa's hosted form, posted by the browser with the server's values (a button without JavaScript). */
export function HostedForm({ hostedForm }: { hostedForm: NonNullable<PaymentInit['hostedForm']> }) {
  const { t } = useShop();
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => ref.current?.submit(), []);
  return (
    <form ref={ref} method="post" action={hostedForm.action} className="acc-page">
      {Object.entries(hostedForm.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={String(value)} />
      ))}
      <p>{t('checkout.redirecting')}</p>
      <button type="submit" className="button">
        {t('checkout.continueToPayment')}
      </button>
    </form>
  );
}
