import { Body, Controller, Delete, Get, Param, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import {
  CONTACT_STATUSES,
  ContactsService,
  type ContactFilter,
  type ContactView,
} from '../contacts/contacts.service';
import { ContactRecordInputDto } from '../contacts/dto/contact.dto';
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
} from './list/react-admin';

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

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a contact message (answers the deleted record)' })
  @ApiOkResponse({ type: ContactRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async remove(@Param('id') id: string) {
    return withId(await this.contacts.remove(id));
  }
}
