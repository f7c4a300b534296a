import type { ErrorCode, ErrorParams } from '@shop/shared';

export type { ErrorCode, ErrorParams };

/**
 * Failures a client should expect, thrown by services and mapped to HTTP by the one exception
 * filter. Controllers never build error bodies.
 */
export type DomainErrorType =
  | 'INVALID_DATA'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNPROCESSABLE'
  | 'UNAVAILABLE';

export const DOMAIN_ERROR_STATUS: Record<DomainErrorType, number> = {
  INVALID_DATA: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  UNAVAILABLE: 503,
};

/** The code an error answers when the thrower gave none (every answer carries one). */
export const DEFAULT_ERROR_CODE: Record<DomainErrorType, ErrorCode> = {
  INVALID_DATA: 'VALIDATION_FAILED',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  UNPROCESSABLE: 'UNPROCESSABLE',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export interface FieldError {
  field: string;
  message: string;
  /** Stable reason of this field's refusal (VALIDATION_FAILED when none more precise applies). */
  code?: string;
  params?: ErrorParams;
}

export class DomainError extends Error {
  /** A stable machine-readable reason, for clients that show their own (translated) text. */
  public code?: ErrorCode;
  public params?: ErrorParams;

  constructor(
    public readonly type: DomainErrorType,
    message: string,
    public readonly errors?: FieldError[],
    code?: ErrorCode,
    params?: ErrorParams,
  ) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.params = params;
  }

  get statusCode(): number {
    return DOMAIN_ERROR_STATUS[this.type];
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found', code?: ErrorCode, params?: ErrorParams) {
    super('NOT_FOUND', message, undefined, code, params);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code?: ErrorCode, params?: ErrorParams) {
    super('CONFLICT', message, undefined, code, params);
  }
}

export class InvalidDataError extends DomainError {
  constructor(message: string, errors?: FieldError[], code?: ErrorCode, params?: ErrorParams) {
    super('INVALID_DATA', message, errors, code, params);
  }
}
