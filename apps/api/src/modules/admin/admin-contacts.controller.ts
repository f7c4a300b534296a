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
import { ApiReactAdminList, ReactAdminListQuery, sendList } from './list/react-admin';
import { ContactsService, type ContactView } from '../contacts/contacts.service';
import { ContactRecordInputDto } from '../contacts/dto/contact.dto';
import { ContactRecordDto } from './dto/admin.dto';

const withId = (contact: ContactView) => ({ id: contact._id, ...contact });

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
    return sendList(res, 'contacts', await this.contacts.listForAdmin(query));
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
