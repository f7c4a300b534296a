import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DELIVERY_COUNTRY_MESSAGE, deliveryCountry } from '@shop/shared';
import { Model, Types } from 'mongoose';
import { DomainError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import type { AddressInputDto, UpdateAddressDto } from './dto/profile.dto';
import { Address, User } from './schemas/user.schema';
import { requireText, toAddressView } from './user.view';

export const ADDRESS_NOT_FOUND = 'Address not found';
export const MAX_ADDRESSES = 20;

/** Delivery is only within Ethiopia: the country may be left out or spelled in any case. */
function countryOf(input: string | undefined): string {
  const country = deliveryCountry(input);
  if (country) return country;
  throw new InvalidDataError(
    'Validation failed',
    [{ field: 'country', message: DELIVERY_COUNTRY_MESSAGE, code: 'DELIVERY_COUNTRY' }],
    'DELIVERY_COUNTRY',
  );
}

/** The optional parts of an address (postal code, phone, landmark), left out when blank. */
function optionalText(dto: { zipCode?: string; phone?: string; landmark?: string }) {
  const out: { zipCode?: string; phone?: string; landmark?: string } = {};
  for (const field of ['zipCode', 'phone', 'landmark'] as const) {
    const value = dto[field]?.trim();
    if (value) out[field] = value;
  }
  return out;
}

const unknownAccount = () =>
  new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');

/**
 * One's own address book, kept on the account: numeric ids that are never reused, at most
 * MAX_ADDRESSES, exactly one default while any exists. Every method is keyed by the signed-in user's id.
 */
@Injectable()
export class AddressesService {
  constructor(@InjectModel(User.name) private readonly users: Model<User>) {}

  async listAddresses(userId: string) {
    const user = await this.users.findById(new Types.ObjectId(userId), { addresses: 1 }).lean();
    if (!user) throw unknownAccount();
    return (user.addresses ?? []).map(toAddressView);
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
      ...optionalText(dto),
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
    for (const field of ['street', 'city', 'state'] as const) {
      const value = requireText(field, dto[field]);
      if (value !== undefined) set[`addresses.$.${field}`] = value;
    }
    // The optional parts: a blank value removes them.
    const unset: Record<string, 1> = {};
    for (const field of ['zipCode', 'phone', 'landmark'] as const) {
      if (dto[field] === undefined) continue;
      const value = dto[field]?.trim();
      if (value) set[`addresses.$.${field}`] = value;
      else unset[`addresses.$.${field}`] = 1;
    }
    if (dto.country !== undefined) set['addresses.$.country'] = countryOf(dto.country);
    if (dto.isDefault !== undefined) set['addresses.$.isDefault'] = dto.isDefault;
    const filter = { _id: id, 'addresses.id': addressId };
    const res =
      Object.keys(set).length || Object.keys(unset).length
        ? await this.users.updateOne(
            filter,
            {
              ...(Object.keys(set).length ? { $set: set } : {}),
              ...(Object.keys(unset).length ? { $unset: unset } : {}),
            },
            { runValidators: true },
          )
        : { matchedCount: Number(Boolean(await this.users.exists(filter))) };
    if (!res.matchedCount) {
      await this.assertAccount(id);
      throw new NotFoundError(ADDRESS_NOT_FOUND, 'ADDRESS_NOT_FOUND');
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
    if (!before) throw unknownAccount();
    const removed = (before.addresses ?? []).find((a) => a.id === addressId);
    if (!removed) throw new NotFoundError(ADDRESS_NOT_FOUND, 'ADDRESS_NOT_FOUND');
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
    if (!address) throw new NotFoundError(ADDRESS_NOT_FOUND, 'ADDRESS_NOT_FOUND'); // removed meanwhile in another tab
    return { address, addresses };
  }

  /** The account is gone (deleted while its token was remembered): the token no longer counts. */
  private async assertAccount(id: Types.ObjectId): Promise<void> {
    if (!(await this.users.exists({ _id: id }))) throw unknownAccount();
  }

  private async addressBookFull(userId: string): Promise<DomainError> {
    await this.assertAccount(new Types.ObjectId(userId));
    return new InvalidDataError(
      `An address book holds at most ${MAX_ADDRESSES} addresses`,
      undefined,
      'ADDRESS_LIMIT',
      { max: MAX_ADDRESSES },
    );
  }
}
