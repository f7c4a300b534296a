import { isStrongEnough } from '@shop/shared';

/** react-admin validator: the API's password strength rule (libs/shared password module), message translated. */
export const strongPassword = (value: unknown) =>
  typeof value === 'string' && value && !isStrongEnough(value) ? 'shop.admin.users.passwordWeak' : undefined;
