import { Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { NotFoundError } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config';
import { mailDirOf, smsDirOf, usesLocalSms } from '../notifications/notifications.worker';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_STATES,
  OutboxAdminService,
  type OutboxFilter,
} from '../notifications/outbox-admin.service';
import { isStoredMailId, listStoredMails } from '../notifications/transports/local-mail-server';
import { listStoredSms, readStoredSms } from '../notifications/transports/local-sms-store';
import {
  ApiReactAdminList,
  filterEnum,
  filterText,
  parseListQuery,
  ReactAdminListQuery,
  readListQuery,
  sendList,
  setContentRange,
  type FilterValue,
  type ListSpec,
} from '../../common/react-admin-list';

export class NotificationRecordDto {
  @ApiProperty() id!: string;
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'order.placed:665f0c...' }) eventKey!: string;
  @ApiProperty({ enum: ['email', 'sms'] }) channel!: string;
  @ApiProperty({ description: 'Email address or phone number' }) to!: string;
  @ApiProperty({ example: 'orderPlaced' }) template!: string;
  @ApiProperty({ enum: ['en', 'am'] }) language!: string;
  @ApiProperty() subject!: string;
  @ApiPropertyOptional({ description: 'Absent for password reset messages' }) text?: string;
  @ApiPropertyOptional({ description: 'Absent for password reset messages' }) html?: string;
  @ApiProperty() sensitive!: boolean;
  @ApiProperty({ enum: ['pending', 'sending', 'sent', 'failed'] }) state!: string;
  @ApiProperty() attempts!: number;
  @ApiPropertyOptional() lastError?: string;
  @ApiProperty() nextAttemptAt!: Date;
  @ApiPropertyOptional() sentAt?: Date;
  @ApiProperty() createdAt!: Date;
  @ApiProperty() updatedAt!: Date;
}

export class MailRecordDto {
  @ApiProperty() id!: string;
  @ApiPropertyOptional() messageId?: string;
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() text!: string;
  @ApiPropertyOptional() html?: string;
  @ApiProperty() receivedAt!: string;
}

export class SmsRecordDto {
  @ApiProperty({ example: '1767225600000-0a1b2c3d' }) id!: string;
  @ApiProperty({ example: '+251911234567', description: 'E.164' }) to!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ format: 'date-time' }) sentAt!: string;
}

/** The outbox list: sortable stored fields, and its filters (q is one recipient, exactly). */
const OUTBOX_LIST: ListSpec = {
  sortFields: {
    createdAt: 'createdAt',
    state: 'state',
    attempts: 'attempts',
    sentAt: 'sentAt',
    to: 'to',
    template: 'template',
  },
  filters: ['q', 'state', 'channel', 'template'],
  defaultSort: ['createdAt', 'DESC'],
};

function outboxFilter(filter: Record<string, FilterValue>): OutboxFilter {
  return {
    states: filterEnum(filter, 'state', NOTIFICATION_STATES) as OutboxFilter['states'],
    channels: filterEnum(filter, 'channel', NOTIFICATION_CHANNELS) as OutboxFilter['channels'],
    template: filterText(filter, 'template'),
    to: filterText(filter, 'q'),
  };
}

@ApiTags('admin')
@Controller('admin')
@AdminOnly()
export class AdminNotificationsController {
  constructor(
    private readonly outbox: OutboxAdminService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('notifications')
  @ApiOperation({
    summary: 'The outbox (react-admin list; filter state, channel, template, q = exact recipient, id)',
  })
  @ApiReactAdminList('notifications', NotificationRecordDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    return sendList(
      res,
      'notifications',
      await this.outbox.list(readListQuery(query, OUTBOX_LIST, outboxFilter)),
    );
  }

  @Get('notifications/:id')
  @ApiOperation({ summary: 'One outbox message' })
  @ApiOkResponse({ type: NotificationRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.outbox.getOne(id);
  }

  @Post('notifications/:id/resend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a sent or failed message again (not password resets)' })
  @ApiOkResponse({ type: NotificationRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Still pending or sending, or a password reset' })
  resend(@Param('id') id: string) {
    return this.outbox.resend(id);
  }

  @Get('mails')
  @ApiOperation({
    summary:
      'Mail received by the local development SMTP server (no SMTP_HOST), newest first (react-admin list; filter q = recipient)',
  })
  @ApiReactAdminList('mails', MailRecordDto)
  async mails(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    const { skip, limit, filter } = parseListQuery(query, {
      sortFields: {},
      filters: ['q'],
      defaultSort: ['id', 'DESC'],
    });
    const q = typeof filter.q === 'string' ? filter.q.toLowerCase() : undefined;
    const all = (await listStoredMails(mailDirOf(this.config))).filter(
      (m) => !q || m.to.toLowerCase().includes(q),
    );
    const page = all.slice(skip, skip + limit);
    setContentRange(res, 'mails', skip, page.length, all.length);
    return page;
  }

  @Get('mails/:id')
  @ApiOperation({ summary: 'One mail received by the local development SMTP server' })
  @ApiOkResponse({ type: MailRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async mail(@Param('id') id: string) {
    const mail = isStoredMailId(id)
      ? (await listStoredMails(mailDirOf(this.config))).find((m) => m.id === id)
      : undefined;
    if (!mail) throw new NotFoundError('Mail not found', 'MAIL_NOT_FOUND');
    return mail;
  }

  @Get('sms')
  @ApiOperation({
    summary:
      'SMS kept by the local SMS store (no AFROMESSAGE_TOKEN, outside production), newest first (react-admin list; filter q = recipient). 404 in production or with a real gateway',
  })
  @ApiReactAdminList('sms', SmsRecordDto)
  @ApiNotFoundResponse({
    type: ErrorDto,
    description: 'No local SMS store (production, or AFROMESSAGE_TOKEN set)',
  })
  async smsList(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    this.requireLocalSms();
    const { skip, limit, filter } = parseListQuery(query, {
      sortFields: {},
      filters: ['q'],
      defaultSort: ['id', 'DESC'],
    });
    const q = typeof filter.q === 'string' ? filter.q.replace(/\s/g, '') : undefined;
    const all = (await listStoredSms(smsDirOf(this.config))).filter((m) => !q || m.to.includes(q));
    const page = all.slice(skip, skip + limit);
    setContentRange(res, 'sms', skip, page.length, all.length);
    return page;
  }

  @Get('sms/:id')
  @ApiOperation({ summary: 'One SMS kept by the local SMS store' })
  @ApiOkResponse({ type: SmsRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async sms(@Param('id') id: string) {
    this.requireLocalSms();
    const sms = await readStoredSms(smsDirOf(this.config), id);
    if (!sms) throw new NotFoundError('SMS not found', 'SMS_NOT_FOUND');
    return sms;
  }

  /** The local SMS store exists only where SMS go to it: elsewhere its routes are not there. */
  private requireLocalSms(): void {
    if (!usesLocalSms(this.config)) throw new NotFoundError('SMS not found', 'SMS_NOT_FOUND');
  }
}
