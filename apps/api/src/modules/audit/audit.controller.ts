import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
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
import { ApiReactAdminList, ReactAdminListQuery, setContentRange } from '../admin/list/react-admin';
import { AUDIT_ENTITIES } from './schemas/audit-entry.schema';
import { AuditService } from './audit.service';

export class AuditEntryDto {
  @ApiProperty() id!: string;
  @ApiProperty() _id!: string;
  @ApiProperty({ enum: AUDIT_ENTITIES }) entity!: string;
  @ApiProperty() entityId!: string;
  @ApiProperty({ example: 'order.status' }) action!: string;
  @ApiPropertyOptional({ description: 'Value before the change' }) from?: unknown;
  @ApiPropertyOptional({ description: 'Value after the change' }) to?: unknown;
  @ApiPropertyOptional({ type: String, nullable: true }) actor!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) actorEmail!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "The admin's name at the time" })
  actorName!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'What made a change without a signed-in actor: webhook (Chapa), verify, reverify (payment re-check), test',
  })
  source!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

@ApiTags('admin')
@Controller('admin/audit')
@AdminOnly()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({ summary: 'The audit trail (react-admin list; filter entity, entityId, action, actor)' })
  @ApiReactAdminList('audit', AuditEntryDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    const { records, skip, total } = await this.audit.list(query);
    setContentRange(res, 'audit', skip, records.length, total);
    return records;
  }

  @Get(':id')
  @ApiOperation({ summary: 'One audit entry' })
  @ApiOkResponse({ type: AuditEntryDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.audit.getOne(id);
  }
}
