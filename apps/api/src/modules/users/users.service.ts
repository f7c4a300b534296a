import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DELIVERY_COUNTRY_MESSAGE, deliveryCountry, isStrongEnough } from '@shop/shared';
import * as bcrypt from 'bcryptjs';
import { Model, Types } from 'mongoose';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
} from '../../common/errors/domain-error';
import { conflictOnDuplicate } from '../../common/mongo';
import { BCRYPT_ROUNDS, DUPLICATE_EMAIL, ethiopianPhone, toUserView } from '../auth/auth.service';
import type {
  AddressInputDto,
  ChangePasswordDto,
  UpdateAddressDto,
  UpdateProfileDto,
} from './dto/profile.dto';
import { Address, User } from './schemas/user.schema';

export const ADDRESS_NOT_FOUND = 'Address not found';
export const MAX_ADDRESSES = 20;

export function toAddressView(address: Address) {
  return {
    id: address.id,
    street: address.street,
    city: address.city,
    state: address.state,
    zipCode: address.zipCode,
    country: address.country,
    isDefault: !!address.isDefault,
  };
}

/** Delivery is only within Ethiopia: the country may be left out or spelled in any case. */
function countryOf(input: string | undefined): string {
  const country = deliveryCountry(input);
  if (country) return country;
  throw new InvalidDataError('Validation failed', [{ field: 'country', message: DELIVERY_COUNTRY_MESSAGE }]);
}

function requireText(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!trimmed)
    throw new InvalidDataError('Validation failed', [{ field, message: `${field} must not be empty` }]);
  return trimmed;
}

/** One's own profile and address book; every method is keyed by the signed-in user's id. */
@Injectable()
export class UsersService {
  constructor(@InjectModel(User.name) private readonly users: Model<User>) {}

  private async load(userId: string) {
    const user = await this.users.findById(new Types.ObjectId(userId)).lean();
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    return user;
  }

  async getProfile(userId: string) {
    const user = await this.load(userId);
    return { ...toUserView(user), addresses: (user.addresses ?? []).map(toAddressView) };
  }

  /** Name, email (unique, 409 when taken) and phone (Ethiopian, normalised to +251...). */
  async updateProfile(userId: string, dto: UpdateProfileDto) {
    const set: Partial<User> = {};
    const unset: Record<string, 1> = {};
    const fullName =
      dto.name !== undefined
        ? requireText('name', dto.name)
        : dto.firstName !== undefined || dto.lastName !== undefined
          ? requireText('name', [dto.firstName, dto.lastName].filter(Boolean).join(' '))
          : undefined;
    if (fullName) set.name = fullName;
    if (dto.email !== undefined) set.email = dto.email.trim().toLowerCase();
    if (dto.phone === null || (typeof dto.phone === 'string' && dto.phone.trim() === '')) {
      unset.phone = 1;
    } else if (dto.phone !== undefined) {
      set.phone = ethiopianPhone(dto.phone);
    }
    if (dto.language !== undefined) set.language = dto.language;
    if (!Object.keys(set).length && !Object.keys(unset).length) {
      throw new InvalidDataError('Nothing to update: send name, email, phone or language');
    }
    const id = new Types.ObjectId(userId);
    if (set.email && (await this.users.exists({ email: set.email, _id: { $ne: id } }))) {
      throw new ConflictError(DUPLICATE_EMAIL);
    }
    const user = await conflictOnDuplicate(
      this.users
        .findByIdAndUpdate(
          id,
          {
            ...(Object.keys(set).length ? { $set: set } : {}),
            ...(Object.keys(unset).length ? { $unset: unset } : {}),
          },
          { new: true, runValidators: true },
        )
        .lean()
        .exec(),
      DUPLICATE_EMAIL,
    );
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    return toUserView(user);
  }

  /** The current password is required; the new one follows the sign-up strength rule. */
  async changePassword(userId: string, dto: ChangePasswordDto) {
    const current = dto.currentPassword ?? dto.oldPassword;
    if (!current) {
      throw new InvalidDataError('Current password is required', [
        { field: 'currentPassword', message: 'Current password is required' },
      ]);
    }
    if (dto.confirmPassword !== undefined && dto.confirmPassword !== dto.newPassword) {
      throw new InvalidDataError('Passwords do not match', [
        { field: 'confirmPassword', message: 'Passwords do not match' },
      ]);
    }
    if (!isStrongEnough(dto.newPassword)) {
      throw new InvalidDataError('Please choose a stronger password', [
        { field: 'newPassword', message: 'Please choose a stronger password' },
      ]);
    }
    const user = await this.users.findById(new Types.ObjectId(userId)).select('+passwordHash').lean();
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    // 400, not 401: a 401 makes the spec's client forget its session
    if (!(await bcrypt.compare(current, user.passwordHash))) {
      throw new InvalidDataError('Current password is incorrect', [
        { field: 'currentPassword', message: 'Current password is incorrect' },
      ]);
    }
    const passwordHash = await bcrypt.hash(dto.newPassword, BCRYPT_ROUNDS);
    // every earlier session ends with the old password (the caller gets a new token)
    await this.users.updateOne({ _id: user._id }, { $set: { passwordHash }, $inc: { tokenVersion: 1 } });
  }

  async listAddresses(userId: string) {
    return ((await this.load(userId)).addresses ?? []).map(toAddressView);
  }

  /**
   * Adds an address with the next numeric id; the first address (or one marked so) becomes the
   * default. One conditional `$push` (the filter holds the size guard), so parallel adds never lose
   * each other and the cap holds; ids come from an atomic counter, so they are never shared.
   */
  async addAddress(userId: string, dto: AddressInputDto) {
    const id = new Types.ObjectId(userId);
    const country = countryOf(dto.country);
    const fields = {
      street: requireText('street', dto.street)!,
      city: requireText('city', dto.city)!,
      state: requireText('state', dto.state)!,
      zipCode: requireText('zipCode', dto.zipCode)!,
    };
    const full = { _id: id, [`addresses.${MAX_ADDRESSES - 1}`]: { $exists: false } };
    const counter = await this.users
      .findOneAndUpdate(full, { $inc: { addressSeq: 1 } }, { new: true, projection: { addressSeq: 1 } })
      .lean();
    if (!counter) throw await this.addressBookFull(userId);
    const address: Address = {
      id: counter.addressSeq,
      ...fields,
      country,
      isDefault: dto.isDefault === true,
    };
    const pushed = await this.users.updateOne(full, { $push: { addresses: address } });
    if (!pushed.matchedCount) throw await this.addressBookFull(userId);
    if (address.isDefault) await this.clearOtherDefaults(id, address.id);
    await this.ensureDefault(id);
    return this.addressAnswer(userId, address.id);
  }

  /** Changes only the fields sent, each with a positional update of this one address. */
  async updateAddress(userId: string, addressId: number, dto: UpdateAddressDto) {
    const id = new Types.ObjectId(userId);
    const set: Record<string, unknown> = {};
    for (const field of ['street', 'city', 'state', 'zipCode'] as const) {
      const value = requireText(field, dto[field]);
      if (value !== undefined) set[`addresses.$.${field}`] = value;
    }
    if (dto.country !== undefined) set['addresses.$.country'] = countryOf(dto.country);
    if (dto.isDefault !== undefined) set['addresses.$.isDefault'] = dto.isDefault;
    const filter = { _id: id, 'addresses.id': addressId };
    const res = Object.keys(set).length
      ? await this.users.updateOne(filter, { $set: set }, { runValidators: true })
      : { matchedCount: Number(Boolean(await this.users.exists(filter))) };
    if (!res.matchedCount) {
      await this.load(userId);
      throw new NotFoundError(ADDRESS_NOT_FOUND);
    }
    if (dto.isDefault === true) {
      await this.clearOtherDefaults(id, addressId);
      await this.ensureDefault(id);
    }
    return this.addressAnswer(userId, addressId);
  }

  /** Removes an address; when it was the default, the oldest remaining one takes its place. */
  async removeAddress(userId: string, addressId: number) {
    const id = new Types.ObjectId(userId);
    const before = await this.users
      .findOneAndUpdate({ _id: id }, { $pull: { addresses: { id: addressId } } })
      .lean();
    if (!before) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    const removed = (before.addresses ?? []).find((a) => a.id === addressId);
    if (!removed) throw new NotFoundError(ADDRESS_NOT_FOUND);
    if (removed.isDefault) await this.ensureDefault(id);
    return this.listAddresses(userId);
  }

  /** Every other address stops being the default (array filters: one atomic update, nothing rewritten). */
  private async clearOtherDefaults(id: Types.ObjectId, keep: number): Promise<void> {
    await this.users.updateOne(
      { _id: id },
      { $set: { 'addresses.$[other].isDefault': false } },
      { arrayFilters: [{ 'other.id': { $ne: keep }, 'other.isDefault': true }] },
    );
  }

  /**
   * A non-empty address book has a default: when none is (two addresses made default at once each
   * cleared the other), the oldest one becomes it. Conditional, so it never overrides a default.
   */
  private async ensureDefault(id: Types.ObjectId): Promise<void> {
    await this.users.updateOne(
      { _id: id, 'addresses.0': { $exists: true }, 'addresses.isDefault': { $ne: true } },
      { $set: { 'addresses.0.isDefault': true } },
    );
  }

  private async addressAnswer(userId: string, addressId: number) {
    const addresses = await this.listAddresses(userId);
    const address = addresses.find((a) => a.id === addressId);
    if (!address) throw new NotFoundError(ADDRESS_NOT_FOUND); // removed meanwhile in another tab
    return { address, addresses };
  }

  private async addressBookFull(userId: string): Promise<DomainError> {
    await this.load(userId);
    const error = new InvalidDataError(`An address book holds at most ${MAX_ADDRESSES} addresses`);
    error.code = 'ADDRESS_LIMIT';
    error.params = { max: MAX_ADDRESSES };
    return error;
  }
}
