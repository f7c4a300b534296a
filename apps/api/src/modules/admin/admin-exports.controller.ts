import { applyDecorators, Controller, Get, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiOperation,
  ApiProduces,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { isLanguage, translate, type Language } from '@shop/i18n';
import { regionName, SETTINGS_LANGUAGES } from '@shop/shared';
import { IsIn, IsOptional } from 'class-validator';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import type { ListPage, ListQuery } from '../../common/list-query';
import { AuditService } from '../audit/audit.service';
import { OrderQueries } from '../orders/order-queries.service';
import { SettingsService } from '../settings/settings.service';
import { AccountsService } from '../users/accounts.service';
import { listQuery as orderListQuery } from './admin-orders.controller';
import { listQuery as userListQuery } from './admin-users.controller';
import { birrCell, csvFileName, shopTimeCell, toCsv, type CsvValue } from './csv';
import { ReactAdminListQuery } from '../../common/react-admin-list';

/** Rows read per round trip while an export walks the whole filtered list. */
const BATCH = 500;
/** At most this many rows in one file (a bigger export is narrowed by its filters: 413 otherwise). */
export const EXPORT_MAX_ROWS = 50_000;

export class ExportQuery extends ReactAdminListQuery {
  @ApiPropertyOptional({
    enum: SETTINGS_LANGUAGES,
    description: "The headers' and values' language (default: the shop's language)",
  })
  @IsOptional()
  @IsIn(SETTINGS_LANGUAGES)
  lang?: string;
}

/** Every record of a filtered list, read in batches (the list's sort kept). */
async function allOf<F extends object, R>(
  query: ListQuery<F>,
  read: (q: ListQuery<F>) => Promise<ListPage<R>>,
): Promise<ListPage<R>['records']> {
  const records: ListPage<R>['records'] = [];
  for (let skip = 0; skip < EXPORT_MAX_ROWS; skip += BATCH) {
    const page = await read({ ...query, skip, limit: Math.min(BATCH, EXPORT_MAX_ROWS - skip) });
    records.push(...page.records);
    if (page.records.length < BATCH) break;
  }
  return records;
}

/** The contract of an export route: a CSV file, or a JSON refusal (400 for a bad list query, 403). */
function ApiCsvExport(summary: string) {
  return applyDecorators(
    ApiOperation({ summary }),
    ApiProduces('text/csv'),
    ApiResponse({
      status: 200,
      description: 'The CSV file',
      content: { 'text/csv': { schema: { type: 'string' } } },
    }),
    ApiBadRequestResponse({
      type: ErrorDto,
      description: 'Malformed sort or filter, unknown filter or language',
    }),
    ApiForbiddenResponse({ type: ErrorDto, description: 'Not staff' }),
  );
}

/** The file's headers, set only once it is ready (a refusal stays JSON). */
const sendCsv = (res: Response, name: string, body: string) => {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
  return body;
};

/**
 * The back office's reports as CSV (docs/decisions/0081-replies-shop-clock-reports.md): the orders
 * and customers lists with the list's filters and sort, dates on the shop clock, money in ETB with
 * 2 decimals, UTF-8 with BOM, formula cells neutralised. Each export is audited (personal data left
 * the shop).
 */
@ApiTags('admin')
@Controller('admin')
@AdminOnly()
export class AdminExportsController {
  constructor(
    private readonly orders: OrderQueries,
    private readonly users: AccountsService,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
  ) {}

  @Get('orders/export.csv')
  @ApiCsvExport(
    "Orders as CSV (the orders list's filter and sort; range ignored): dates on the shop clock, money in ETB, UTF-8 with BOM; audited",
  )
  async ordersCsv(
    @Query() query: ExportQuery,
    @CurrentUser() actor: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { lang: asked, ...list } = query;
    const typed = orderListQuery(list);
    const settings = await this.settings.get();
    const lang: Language = isLanguage(asked)
      ? asked
      : isLanguage(settings.language)
        ? settings.language
        : 'en';
    const zone = settings.timezone;
    const t = (key: string) => translate(lang, key);
    const orders = await allOf(typed, (q) => this.orders.listForAdmin(q));
    const header = [
      'number',
      'date',
      'customer',
      'email',
      'phone',
      'region',
      'city',
      'items',
      'subtotal',
      'shipping',
      'tax',
      'total',
      'status',
      'paymentStatus',
      'paymentMethod',
      'shippingMethod',
    ].map((c) => t(`admin.reports.columns.${c}`));
    const rows: CsvValue[][] = orders.map((o) => [
      o.orderNumber ?? o._id.slice(-8).toUpperCase(),
      shopTimeCell(o.createdAt, zone),
      o.customer?.name ?? '',
      o.customer?.email ?? '',
      o.customer?.phone ?? o.shippingAddress.phone ?? '',
      o.shippingAddress.state ? regionName(o.shippingAddress.state, lang) : '',
      o.shippingAddress.city ?? '',
      o.orderItems.reduce((sum, item) => sum + item.quantity, 0),
      birrCell(o.subtotal),
      birrCell(o.shippingCost),
      birrCell(o.tax),
      birrCell(o.totalAmount),
      t(`admin.orders.status.${o.status}`),
      t(`admin.orders.paymentStatuses.${o.paymentStatus}`),
      t(`admin.orders.paymentMethods.${o.paymentMethod}`),
      t(`admin.orders.shippingMethods.${o.shippingMethod}`),
    ]);
    await this.audit.record(actor, {
      entity: 'report',
      entityId: 'orders',
      action: 'report.export',
      to: { rows: rows.length, filter: list.filter ?? null },
    });
    return sendCsv(res, csvFileName('orders', new Date(), zone), toCsv(header, rows));
  }

  @Get('users/export.csv')
  @ApiCsvExport(
    "Customers and staff as CSV (the users list's filter and sort; range ignored): joined date on the shop clock, UTF-8 with BOM; audited",
  )
  async usersCsv(
    @Query() query: ExportQuery,
    @CurrentUser() actor: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { lang: asked, ...list } = query;
    const typed = userListQuery(list);
    const settings = await this.settings.get();
    const lang: Language = isLanguage(asked)
      ? asked
      : isLanguage(settings.language)
        ? settings.language
        : 'en';
    const zone = settings.timezone;
    const t = (key: string) => translate(lang, key);
    const users = await allOf(typed, (q) => this.users.listForAdmin(q));
    const header = ['name', 'email', 'phone', 'role', 'active', 'language', 'joined'].map((c) =>
      t(`admin.reports.columns.${c}`),
    );
    const rows: CsvValue[][] = users.map((u) => [
      u.name,
      u.email ?? '',
      u.phone ?? '',
      t(`admin.users.roles.${u.role === 'admin' ? 'admin' : 'customer'}`),
      t(u.isActive ? 'admin.users.active' : 'admin.users.inactive'),
      u.language ? t(`admin.reports.languages.${u.language}`) : '',
      shopTimeCell(u.createdAt, zone),
    ]);
    await this.audit.record(actor, {
      entity: 'report',
      entityId: 'users',
      action: 'report.export',
      to: { rows: rows.length, filter: list.filter ?? null },
    });
    return sendCsv(res, csvFileName('users', new Date(), zone), toCsv(header, rows));
  }
}
