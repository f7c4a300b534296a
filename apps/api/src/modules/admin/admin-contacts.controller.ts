import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
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
  CONTACT_STATUSES,
  ContactsService,
  type ContactFilter,
  type ContactView,
} from '../contacts/contacts.service';
import { ContactRecordInputDto, ContactReplyInputDto } from '../contacts/dto/contact.dto';
import { ContactRecordDto } from './dto/admin.dto';
import {
  ApiReactAdminList,
  filterEnum,
  filterText,
  ReactAdminListQuery,
  readListQuery,
  sendList,
  type FilterValue,
  type ListSpec,
} from '../../common/react-admin-list';

const withId = (contact: ContactView) => ({ id: contact._id, ...contact });

/** The contacts list: filters q (name, email, subject), status, id. */
const CONTACTS_LIST: ListSpec = {
  sortFields: { createdAt: 'createdAt', status: 'status', name: 'name', email: 'email', subject: 'subject' },
  filters: ['q', 'status'],
  defaultSort: ['createdAt', 'DESC'],
};

function contactFilter(filter: Record<string, FilterValue>): ContactFilter {
  return {
    q: filterText(filter, 'q'),
    statuses: filterEnum(filter, 'status', CONTACT_STATUSES) as ContactFilter['statuses'],
  };
}

@ApiTags('admin')
@Controller('admin/contacts')
@AdminOnly()
export class AdminContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  @ApiOperation({
    summary: 'Contact messages (react-admin list; filter q over name, email and subject, status, id)',
  })
  @ApiReactAdminList('contacts', ContactRecordDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    return sendList(
      res,
      'contacts',
      await this.contacts.listForAdmin(readListQuery(query, CONTACTS_LIST, contactFilter)),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One contact message' })
  @ApiOkResponse({ type: ContactRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async getOne(@Param('id') id: string) {
    return withId(await this.contacts.get(id));
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Set the status (unread, read, replied); the whole record may be sent, only status changes',
  })
  @ApiBody({ type: ContactRecordInputDto })
  @ApiOkResponse({ type: ContactRecordDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async update(@Param('id') id: string, @Body() body: ContactRecordInputDto) {
    return withId(await this.contacts.setStatus(id, body.status));
  }

  @Post(':id/replies')
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Reply to a contact message: emailed to the sender through the outbox in the message's language (the shop's for older messages), kept on the message's thread, the message marked replied; audited",
  })
  @ApiBody({ type: ContactReplyInputDto })
  @ApiCreatedResponse({ type: ContactRecordDto, description: 'The message with its thread' })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'Empty or too long text' })
  @ApiForbiddenResponse({ type: ErrorDto, description: 'Not staff' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'CONTACT_NOT_FOUND' })
  @ApiConflictResponse({ type: ErrorDto, description: 'CONTACT_REPLIES_LIMIT: the thread is full' })
  async reply(@Param('id') id: string, @Body() body: ContactReplyInputDto, @CurrentUser() actor: AuthUser) {
    return withId(await this.contacts.reply(id, body.text, actor));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a contact message (answers the deleted record)' })
  @ApiOkResponse({ type: ContactRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async remove(@Param('id') id: string) {
    return withId(await this.contacts.remove(id));
  }
}
