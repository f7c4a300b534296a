import { normaliseEthiopianPhone } from '@shop/shared';
import { InvalidDataError } from '../../common/errors/domain-error';
import type { Address, User } from './schemas/user.schema';

export const BCRYPT_ROUNDS = 10;
export const DUPLICATE_EMAIL = 'An account with this email already exists';

type UserRecord = User & { _id: unknown };

export type Role = 'customer' | 'admin';
/** A role as the back office may send it ('user' is the spec's word for a customer). */
export const asRole = (role: string | undefined): Role => (role === 'admin' ? 'admin' : 'customer');

/** The user as every answer shows it: name canonical, first and last name derived, never the hash. */
export function toUserView(user: UserRecord) {
  const [firstName, ...rest] = (user.name ?? '').split(' ');
  return {
    _id: String(user._id),
    id: String(user._id),
    name: user.name ?? '',
    firstName,
    lastName: rest.join(' '),
    ...(user.email ? { email: user.email } : {}),
    ...(user.phone ? { phone: user.phone, phoneVerified: Boolean(user.phoneVerifiedAt) } : {}),
    ...(user.language ? { language: user.language } : {}),
    role: user.role,
    isActive: user.isActive,
    createdAt: user.createdAt,
  };
}

/** An Ethiopian mobile number (+2519..., 09..., 07...) normalised to +251...; anything else is a 400. */
export function ethiopianPhone(input: string): string {
  const phone = normaliseEthiopianPhone(input);
  if (!phone) {
    throw new InvalidDataError(
      'Validation failed',
      [
        {
          field: 'phone',
          message: 'phone must be an Ethiopian mobile number (+2519..., 09..., 07...)',
          code: 'INVALID_PHONE',
        },
      ],
      'INVALID_PHONE',
    );
  }
  return phone;
}

/** An address as every answer shows it: the optional parts left out when blank. */
export function toAddressView(address: Address) {
  return {
    id: address.id,
    street: address.street,
    city: address.city,
    state: address.state,
    ...(address.zipCode ? { zipCode: address.zipCode } : {}),
    country: address.country,
    ...(address.phone ? { phone: address.phone } : {}),
    ...(address.landmark ? { landmark: address.landmark } : {}),
    isDefault: !!address.isDefault,
  };
}

/** A text field that may be left out but not sent blank: trimmed, or a 400 REQUIRED. */
export function requireText(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!trimmed)
    throw new InvalidDataError(
      'Validation failed',
      [{ field, message: `${field} must not be empty`, code: 'REQUIRED' }],
      'REQUIRED',
    );
  return trimmed;
}
