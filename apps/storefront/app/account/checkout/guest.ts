import { normaliseEthiopianPhone } from '@shop/shared';
import { EMAIL, text, type FieldErrors } from '../forms';

/** The two ways to pay at checkout: Chapa's hosted page now, or the rider on delivery. */
export type CheckoutPayment = 'chapa' | 'cash_on_delivery';

/** The submitted payment choice: pay on delivery only when asked for by name, Chapa otherwise. */
export function checkoutPayment(value: unknown): CheckoutPayment {
  return value === 'cash_on_delivery' ? 'cash_on_delivery' : 'chapa';
}

export interface GuestInput {
  name: string;
  phone: string;
  email?: string;
}

/**
 * A guest's details at checkout: a name (1–100 characters), the Ethiopian mobile of the address (the
 * address form checks and normalises it; messages go to it by SMS) and, if given, a valid email.
 */
export function validateGuest(form: FormData, phone: string): { input: GuestInput; errors: FieldErrors } {
  const name = text(form, 'name');
  const email = text(form, 'email');
  const errors: FieldErrors = {};
  if (!name) errors.name = 'auth.nameRequired';
  else if (name.length > 100) errors.name = 'checkout.nameTooLong';
  if (email && !EMAIL.test(email)) errors.email = 'auth.emailInvalid';
  return {
    input: {
      name,
      phone: normaliseEthiopianPhone(phone) ?? phone,
      ...(email ? { email } : {}),
    },
    errors,
  };
}
