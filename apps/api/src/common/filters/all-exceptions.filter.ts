import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Error as MongooseError } from 'mongoose';
import {
  DEFAULT_ERROR_CODE,
  DomainError,
  type ErrorCode,
  type ErrorParams,
  type FieldError,
} from '../errors/domain-error';
import { isDuplicateKeyError } from '../mongo';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailableError } from '../../database/unavailable';
import { routeTemplate } from '../logging/request-log';

export interface ErrorBody {
  success: false;
  statusCode: number;
  message: string;
  errors?: FieldError[];
  /** Stable UPPER_SNAKE reason (libs/shared ERROR_CODES; texts in libs/i18n under errors.<CODE>). */
  code: string;
  /** Values the coded text needs; `{}` when it needs none. */
  params: ErrorParams;
}

/** The code of an HTTP-level refusal that is not a DomainError (routing, throttling, body parsing). */
const STATUS_CODE: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};
const codeOfStatus = (status: number): string =>
  STATUS_CODE[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_FAILED');

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/**
 * Turns every failure into the one error shape `{ success: false, statusCode, message, code, params,
 * errors? }`: every answer and every field error carries a stable code.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const response = ctx.getResponse<Response>();
    const request = ctx.getRequest<Request>();
    const body = this.toBody(exception);
    if (body.statusCode >= 500) {
      // the route template and request id, never the raw URL (a reset token or an email may be in it)
      this.logger.error(
        `${request.method} ${routeTemplate(request)} -> ${body.statusCode} (request ${String((request as { id?: unknown }).id ?? '-')})`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (response.headersSent) return;
    response.status(body.statusCode).json(body);
  }

  toBody(exception: unknown): ErrorBody {
    if (exception instanceof DomainError) {
      // without its own code, a refusal whose field errors all share one code answers that code
      const fieldCodes = new Set((exception.errors ?? []).map((e) => e.code).filter(Boolean));
      const code =
        exception.code ?? (fieldCodes.size === 1 ? [...fieldCodes][0]! : DEFAULT_ERROR_CODE[exception.type]);
      return this.body(exception.statusCode, exception.message, exception.errors, code, exception.params);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const res = exception.getResponse();
      if (typeof res === 'string') return this.body(status, res);
      const { message, errors, code } = res as {
        message?: string | string[];
        errors?: FieldError[];
        code?: unknown;
      };
      const text = Array.isArray(message) ? message.join('; ') : message || exception.message;
      return this.body(status, text, errors, typeof code === 'string' ? code : codeOfStatus(status));
    }
    if (exception instanceof MongooseError.CastError) {
      return this.body(HttpStatus.BAD_REQUEST, `Invalid ${exception.path}`, [
        { field: exception.path, message: `Invalid value for ${exception.path}` },
      ]);
    }
    if (exception instanceof MongooseError.ValidationError) {
      const errors = Object.values(exception.errors).map((e) => ({ field: e.path, message: e.message }));
      return this.body(HttpStatus.BAD_REQUEST, 'Validation failed', errors);
    }
    if (isDuplicateKeyError(exception)) {
      const fields = Object.keys((exception as { keyValue?: Record<string, unknown> }).keyValue ?? {});
      return this.body(
        HttpStatus.CONFLICT,
        `A record with this ${fields.join(', ') || 'value'} already exists`,
        undefined,
        'DUPLICATE_KEY',
      );
    }
    if (isDatabaseUnavailableError(exception))
      return this.body(
        HttpStatus.SERVICE_UNAVAILABLE,
        DATABASE_UNAVAILABLE_MESSAGE,
        undefined,
        'DATABASE_UNAVAILABLE',
      );
    const parser = exception as BodyParserError;
    if (parser && typeof parser.type === 'string') {
      if (parser.type === 'entity.too.large')
        return this.body(HttpStatus.PAYLOAD_TOO_LARGE, 'Request body is too large');
      if (parser.type === 'entity.parse.failed')
        return this.body(HttpStatus.BAD_REQUEST, 'Malformed JSON body', undefined, 'MALFORMED_JSON');
      const status = parser.status ?? parser.statusCode;
      if (status && status >= 400 && status < 500)
        return this.body(status, 'Invalid request body', undefined, 'INVALID_BODY');
    }
    return this.body(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
  }

  private body(
    statusCode: number,
    message: string,
    errors?: FieldError[],
    code: string = codeOfStatus(statusCode),
    params: ErrorParams = {},
  ): ErrorBody {
    const base = { success: false as const, statusCode, message, code, params };
    // every field error carries a code too (VALIDATION_FAILED when its rule has no finer one)
    return errors?.length
      ? { ...base, errors: errors.map((e) => ({ ...e, code: e.code ?? 'VALIDATION_FAILED' })) }
      : base;
  }
}
