import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import {
  filterBoolean,
  filterEnum,
  filterText,
  readListQuery,
  sendList,
  type FilterValue,
  type ListSpec,
  type ReactAdminListQuery,
} from '../../common/react-admin-list';
import { AdminListQuery, ApiAdminList, isSpecListQuery, specList } from './list/spec-list';
import { AuthService } from '../auth/auth.service';
import { AccountsService, type UserListFilter } from '../users/accounts.service';
import { asRole } from '../users/user.view';
import {
  AdminCreateUserDto,
  AdminUpdateUserDto,
  AdminUserRecordDto,
  ChangeActiveDto,
  ChangeRoleDto,
  DeletedResponseDto,
  UserCreatedResponseDto,
  UserMessageResponseDto,
} from './dto/admin.dto';

/** The users list: sortable fields, filters q (name or email, literal text), role, isActive, id. */
const LIST: ListSpec = {
  sortFields: { name: 'name', email: 'email', role: 'role', isActive: 'isActive', createdAt: 'createdAt' },
  filters: ['q', 'role', 'isActive'],
  defaultSort: ['createdAt', 'DESC'],
};

function userFilter(filter: Record<string, FilterValue>): UserListFilter {
  const roles = filterEnum(filter, 'role', ['customer', 'admin', 'user']);
  return {
    q: filterText(filter, 'q'),
    roles: roles?.map(asRole),
    isActive: filterBoolean(filter, 'isActive'),
  };
}

/** A react-admin list call as the accounts' typed query (400 on anything malformed). */
export const listQuery = (raw: ReactAdminListQuery) => readListQuery(raw, LIST, userFilter);

/** The spec's `status` (active flag) and `role` filters of the users screen. */
const SPEC_FILTERS = {
  status: { active: { isActive: true }, inactive: { isActive: false } },
  role: { customer: { role: 'customer' }, user: { role: 'customer' }, admin: { role: 'admin' } },
};

@ApiTags('admin')
@Controller('admin/users')
@AdminOnly()
export class AdminUsersController {
  constructor(
    private readonly users: AccountsService,
    private readonly accounts: AuthService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Users (react-admin list; filter q over name and email, role, isActive, id)' })
  @ApiAdminList('users', AdminUserRecordDto)
  async list(@Query() query: AdminListQuery, @Res({ passthrough: true }) res: Response) {
    if (isSpecListQuery(query))
      return specList('users', query, SPEC_FILTERS, (q) => this.users.listForAdmin(listQuery(q)));
    return sendList(res, 'users', await this.users.listForAdmin(listQuery(query)));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One user' })
  @ApiOkResponse({ type: AdminUserRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.users.anyUser(id);
  }

  @Post()
  @ApiOperation({ summary: 'Create a user with a role (the back office "Add User")' })
  @ApiCreatedResponse({ type: UserCreatedResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: "Invalid field or 'Please choose a stronger password'",
  })
  @ApiConflictResponse({ type: ErrorDto, description: 'Email already registered' })
  async create(@Body() body: AdminCreateUserDto, @CurrentUser() actor: AuthUser) {
    const user = await this.accounts.createUser(body, body.role === 'admin' ? 'admin' : 'customer', actor);
    return { success: true, message: 'User created', user, id: user.id };
  }

  @Put(':id')
  @ApiOperation({
    summary: "Edit a user's name, email, role and active flag",
    description:
      'The guards of the role and active routes hold: not your own role or account, never the last active admin. Audited.',
  })
  @ApiOkResponse({ type: UserMessageResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'Own role or account, the last active admin, or the email belongs to another account',
  })
  async update(@Param('id') id: string, @Body() body: AdminUpdateUserDto, @CurrentUser() actor: AuthUser) {
    const user = await this.users.updateAccount(id, body, actor);
    return { success: true, message: 'User updated successfully', user, id: user.id };
  }

  @Put(':id/role')
  @ApiOperation({ summary: "Change a user's role (not your own; never the last active admin's)" })
  @ApiOkResponse({ type: UserMessageResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Own role, or the last active admin' })
  async changeRole(@Param('id') id: string, @Body() body: ChangeRoleDto, @CurrentUser() actor: AuthUser) {
    const user = await this.users.changeRole(id, body.role, actor);
    return { success: true, message: 'User role updated successfully', user };
  }

  @Put(':id/active')
  @ApiOperation({ summary: 'Activate or deactivate a user (not yourself; never the last active admin)' })
  @ApiOkResponse({ type: UserMessageResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Own account, or the last active admin' })
  async setActive(@Param('id') id: string, @Body() body: ChangeActiveDto, @CurrentUser() actor: AuthUser) {
    const user = await this.users.setActive(id, body.isActive, actor);
    return { success: true, message: 'User status updated successfully', user };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a user (not yourself; never the last active admin)' })
  @ApiOkResponse({ type: DeletedResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Own account, or the last active admin' })
  async remove(@Param('id') id: string, @CurrentUser() actor: AuthUser) {
    return {
      success: true,
      message: 'User deleted successfully',
      id: await this.users.removeAccount(id, actor),
    };
  }
}
