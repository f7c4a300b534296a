import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { ContactRateLimitGuard } from './contact-rate-limit.guard';
import { ContactsService } from './contacts.service';
import {
  ContactDeletedDto,
  ContactListDto,
  ContactResponseDto,
  ContactStatusDto,
  ContactSubmittedDto,
  ListContactsQuery,
  SubmitContactDto,
} from './dto/contact.dto';

@ApiTags('contacts')
@Controller('contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Post('submit')
  @HttpCode(201)
  @UseGuards(ContactRateLimitGuard)
  @ApiOperation({ summary: 'Send a message from the Contact page (public; limited per client IP per hour)' })
  @ApiCreatedResponse({ type: ContactSubmittedDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: 'Missing or invalid name, email, subject or message',
  })
  @ApiTooManyRequestsResponse({
    type: ErrorDto,
    description: 'CONTACT_RATE_LIMIT messages per hour per client IP',
  })
  async submit(@Body() input: SubmitContactDto, @Req() req: Request) {
    await this.contacts.submit(input, { ipAddress: req.ip, userAgent: req.get('user-agent') });
    return { success: true, message: "Your message has been sent. We'll get back to you soon." };
  }

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Contact messages, newest first, optionally by status (admin)' })
  @ApiOkResponse({ type: ContactListDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  async list(@Query() query: ListContactsQuery) {
    return { success: true, contacts: await this.contacts.list(query.status) };
  }

  @Get(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'One contact message (admin)' })
  @ApiOkResponse({ type: ContactResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Contact not found' })
  async get(@Param('id') id: string) {
    return { success: true, contact: await this.contacts.get(id) };
  }

  @Patch(':id/status')
  @AdminOnly()
  @ApiOperation({ summary: 'Mark a contact message unread, read or replied (admin)' })
  @ApiOkResponse({ type: ContactResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Contact not found' })
  async setStatus(@Param('id') id: string, @Body() input: ContactStatusDto) {
    const contact = await this.contacts.setStatus(id, input.status);
    return { success: true, message: 'Contact status updated successfully', contact };
  }

  @Delete(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'Delete a contact message (admin)' })
  @ApiOkResponse({ type: ContactDeletedDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Contact not found' })
  async remove(@Param('id') id: string) {
    await this.contacts.remove(id);
    return { success: true, message: 'Contact deleted successfully' };
  }
}
