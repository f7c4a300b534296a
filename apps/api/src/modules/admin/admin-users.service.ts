import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { FilterQuery, Model } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { ConflictError, NotFoundError } from '../../common/errors/domain-error';
import { escapeRegex, parseObjectId } from '../../common/mongo';
import {
  filterBoolean,
  filterEnum,
  filterObjectIds,
  filterText,
  parseListQuery,
  type ReactAdminListQuery,
} from '../../common/react-admin';
import { AuditService } from '../audit/audit.service';
import { AuthService, toUserView } from '../auth/auth.service';
import { User } from '../users/schemas/user.schema';
import type { AdminCreateUserDto } from './dto/admin.dto';

export const USER_NOT_FOUND = 'User not found';

type Role = 'customer' | 'admin';
const asRole = (role: string | undefined): Role => (role === 'admin' ? 'admin' : 'customer');

/** Users for the back office, with the self and last-admin protections of DECISIONS.md. */
@Injectable()
export class AdminUsersService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly audit: AuditService,
    private readonly accounts: AuthService,
  ) {}

  /** react-admin list: filters q (name or email, literal text), role, isActive, id. */
  async list(query: ReactAdminListQuery) {
    const { sort, skip, limit, filter } = parseListQuery(query, {
      sortFields: {
        name: 'name',
        email: 'email',
        role: 'role',
        isActive: 'isActive',
        createdAt: 'createdAt',
      },
      filters: ['q', 'role', 'isActive'],
      defaultSort: ['createdAt', 'DESC'],
    });
    const where: FilterQuery<User> = {};
    const ids = filterObjectIds(filter);
    if (ids) where._id = { $in: ids };
    const q = filterText(filter, 'q');
    if (q) {
      const pattern = new RegExp(escapeRegex(q), 'i');
      where.$or = [{ name: pattern }, { email: pattern }];
    }
    const roles = filterEnum(filter, 'role', ['customer', 'admin', 'user']);
    if (roles) where.role = { $in: [...new Set(roles.map(asRole))] };
    const isActive = filterBoolean(filter, 'isActive');
    if (isActive !== undefined) where.isActive = isActive;
    const [docs, total] = await Promise.all([
      this.users.find(where).sort(sort).skip(skip).limit(limit).lean().exec(),
      this.users.countDocuments(where).exec(),
    ]);
    return { records: docs.map(toUserView), skip, total };
  }

  async getOne(id: string) {
    return toUserView(await this.find(id));
  }

  /** The back office's "Add User": password rules of SPEC section 5, role customer or admin. */
  async create(dto: AdminCreateUserDto, actor: AuthUser) {
    const user = await this.accounts.createUser(dto, asRole(dto.role));
    await this.audit.record(actor, {
      entity: 'user',
      entityId: user._id,
      action: 'user.create',
      to: { email: user.email, role: user.role },
    });
    return user;
  }

  async changeRole(id: string, roleInput: string, actor: AuthUser) {
    const role = asRole(roleInput);
    const user = await this.find(id);
    if (user.role === role) return toUserView(user);
    if (String(user._id) === actor.id) throw new ConflictError('You cannot change your own role');
    if (user.role === 'admin' && user.isActive)
      await this.keepAnotherActiveAdmin(user._id, 'The last active admin cannot be demoted');
    const updated = await this.users
      // a role change ends the user's sessions: no token outlives the role it was issued under
      .findOneAndUpdate(
        { _id: user._id, role: user.role },
        { $set: { role }, $inc: { tokenVersion: 1 } },
        { new: true },
      )
      .lean()
      .exec();
    if (!updated) throw new ConflictError('The user changed meanwhile; please try again');
    await this.audit.record(actor, {
      entity: 'user',
      entityId: String(user._id),
      action: 'user.role',
      from: user.role,
      to: role,
    });
    return toUserView(updated);
  }

  async setActive(id: string, isActive: boolean, actor: AuthUser) {
    const user = await this.find(id);
    if (user.isActive === isActive) return toUserView(user);
    if (String(user._id) === actor.id) throw new ConflictError('You cannot deactivate your own account');
    if (!isActive && user.role === 'admin')
      await this.keepAnotherActiveAdmin(user._id, 'The last active admin cannot be deactivated');
    const updated = await this.users
      // deactivating ends every session for good: reactivating does not revive old tokens
      .findOneAndUpdate(
        { _id: user._id, isActive: user.isActive },
        { $set: { isActive }, ...(isActive ? {} : { $inc: { tokenVersion: 1 } }) },
        { new: true },
      )
      .lean()
      .exec();
    if (!updated) throw new ConflictError('The user changed meanwhile; please try again');
    await this.audit.record(actor, {
      entity: 'user',
      entityId: String(user._id),
      action: 'user.active',
      from: user.isActive,
      to: isActive,
    });
    return toUserView(updated);
  }

  /** Removes the account; orders keep the customer's name and email as they were at order time. */
  async remove(id: string, actor: AuthUser) {
    const user = await this.find(id);
    if (String(user._id) === actor.id) throw new ConflictError('You cannot delete your own account');
    if (user.role === 'admin' && user.isActive)
      await this.keepAnotherActiveAdmin(user._id, 'The last active admin cannot be deleted');
    const deleted = await this.users.findByIdAndDelete(user._id).lean().exec();
    if (!deleted) throw new NotFoundError(USER_NOT_FOUND);
    await this.audit.record(actor, {
      entity: 'user',
      entityId: String(user._id),
      action: 'user.delete',
      from: { email: user.email, role: user.role },
    });
    return String(user._id);
  }

  private async find(id: string) {
    const user = await this.users.findById(parseObjectId(id, USER_NOT_FOUND)).lean().exec();
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    return user;
  }

  /** The shop must always keep one active admin besides the one being removed, demoted or deactivated. */
  private async keepAnotherActiveAdmin(except: unknown, message: string) {
    const others = await this.users
      .countDocuments({ _id: { $ne: except }, role: 'admin', isActive: true })
      .exec();
    if (others === 0) throw new ConflictError(message);
  }
}
