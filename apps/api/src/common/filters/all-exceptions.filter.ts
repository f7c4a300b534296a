import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Error as MongooseError } from 'mongoose';
import { DomainError, type ErrorParams, type FieldError } from '../errors/domain-error';
import { isDuplicateKeyError } from '../mongo';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailableError } from '../../database/unavailable';

export interface ErrorBody {
  success: false;
  statusCode: number;
  message: string;
  errors?: FieldError[];
  code?: string;
  params?: ErrorParams;
}

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/** Turns every failure into the one error shape `{ success: false, statusCode, message, errors? }`. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const response = ctx.getResponse<Response>();
    const request = ctx.getRequest<Request>();
    const body = this.toBody(exception);
    if (body.statusCode >= 500) {
      this.logger.error(
        `${request.method} ${request.originalUrl} -> ${body.statusCode}`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (response.headersSent) return;
    response.status(body.statusCode).json(body);
  }

  toBody(exception: unknown): ErrorBody {
    if (exception instanceof DomainError) {
      const body = this.body(exception.statusCode, exception.message, exception.errors);
      return exception.code
        ? { ...body, code: exception.code, ...(exception.params ? { params: exception.params } : {}) }
        : body;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const res = exception.getResponse();
      if (typeof res === 'string') return this.body(status, res);
      const { message, errors } = res as { message?: string | string[]; errors?: FieldError[] };
      const text = Array.isArray(message) ? message.join('; ') : message || exception.message;
      return this.body(status, text, errors);
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
      );
    }
    if (isDatabaseUnavailableError(exception))
      return this.body(HttpStatus.SERVICE_UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE);
    const parser = exception as BodyParserError;
    if (parser && typeof parser.type === 'string') {
      if (parser.type === 'entity.too.large')
        return this.body(HttpStatus.PAYLOAD_TOO_LARGE, 'Request body is too large');
      if (parser.type === 'entity.parse.failed')
        return this.body(HttpStatus.BAD_REQUEST, 'Malformed JSON body');
      const status = parser.status ?? parser.statusCode;
      if (status && status >= 400 && status < 500) return this.body(status, 'Invalid request body');
    }
    return this.body(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
  }

  private body(statusCode: number, message: string, errors?: FieldError[]): ErrorBody {
    return errors?.length
      ? { success: false, statusCode, message, errors }
      : { success: false, statusCode, message };
  }
}
