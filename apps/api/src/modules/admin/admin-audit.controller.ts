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
import { AUDIT_ENTITIES, AuditService, type AuditFilter } from '../audit/audit.service';
import {
  ApiReactAdminList,
  filterEnum,
  filterIds,
  filterText,
  ReactAdminListQuery,
  readListQuery,
  sendList,
  type FilterValue,
  type ListSpec,
} from '../../common/react-admin-list';

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

/** The audit list: newest first by default; filters entity, entityId, action, actor. */
const AUDIT_LIST: ListSpec = {
  sortFields: { createdAt: 'createdAt', entity: 'entity', action: 'action', actorEmail: 'actorEmail' },
  filters: ['entity', 'entityId', 'action', 'actor'],
  defaultSort: ['createdAt', 'DESC'],
};

function auditFilter(filter: Record<string, FilterValue>): AuditFilter {
  return {
    entities: filterEnum(filter, 'entity', AUDIT_ENTITIES) as AuditFilter['entities'],
    entityId: filterText(filter, 'entityId'),
    action: filterText(filter, 'action'),
    actors: filterIds(filter, 'actor'),
  };
}

@ApiTags('admin')
@Controller('admin/audit')
@AdminOnly()
export class AdminAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  // operationIds kept from before the controller moved here: integrators' generated clients name methods by them
  @ApiOperation({
    operationId: 'Audit_list',
    summary: 'The audit trail (react-admin list; filter entity, entityId, action, actor)',
  })
  @ApiReactAdminList('audit', AuditEntryDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    return sendList(res, 'audit', await this.audit.list(readListQuery(query, AUDIT_LIST, auditFilter)));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'Audit_getOne', summary: 'One audit entry' })
  @ApiOkResponse({ type: AuditEntryDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.audit.getOne(id);
  }
}
