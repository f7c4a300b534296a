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
import { ApiReactAdminList, ReactAdminListQuery, setContentRange } from '../../common/react-admin';
import { AdminContactsService } from './admin-contacts.service';
import { ContactRecordDto, ContactStatusInputDto } from './dto/admin.dto';

@ApiTags('admin')
@Controller('admin/contacts')
@AdminOnly()
export class AdminContactsController {
  constructor(private readonly contacts: AdminContactsService) {}

  @Get()
  @ApiOperation({
    summary: 'Contact messages (react-admin list; filter q over name, email and subject, status, id)',
  })
  @ApiReactAdminList('contacts', ContactRecordDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    const { records, skip, total } = await this.contacts.list(query);
    setContentRange(res, 'contacts', skip, records.length, total);
    return records;
  }

  @Get(':id')
  @ApiOperation({ summary: 'One contact message' })
  @ApiOkResponse({ type: ContactRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.contacts.getOne(id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Set the status (unread, read, replied); the whole record may be sent, only status changes',
  })
  @ApiBody({ type: ContactStatusInputDto })
  @ApiOkResponse({ type: ContactRecordDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  update(@Param('id') id: string, @Body() body: unknown) {
    return this.contacts.update(id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a contact message (answers the deleted record)' })
  @ApiOkResponse({ type: ContactRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  remove(@Param('id') id: string) {
    return this.contacts.remove(id);
  }
}
