import { normaliseEthiopianPhone } from '@shop/shared';
import { InvalidDataError } from '../../common/errors/domain-error';
import type { User } from './schemas/user.schema';

export const BCRYPT_ROUNDS = 10;
export const DUPLICATE_EMAIL = 'An account with this email already exists';

type UserRecord = User & { _id: unknown };

/** The user as every answer shows it: name canonical, first and last name derived, never the hash. */
export function toUserView(user: UserRecord) {
  const [firstName, ...rest] = user.name.split(' ');
  return {
    _id: String(user._id),
    id: String(user._id),
    name: user.name,
    firstName,
    lastName: rest.join(' '),
    email: user.email,
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
