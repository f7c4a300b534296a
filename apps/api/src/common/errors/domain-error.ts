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

export interface FieldError {
  field: string;
  message: string;
}

/** Values a client needs to word a coded error in its own language (e.g. the product and the stock left). */
export type ErrorParams = Record<string, string | number>;

export class DomainError extends Error {
  /** A stable machine-readable reason, for clients that show their own (translated) text. */
  public code?: string;
  public params?: ErrorParams;

  constructor(
    public readonly type: DomainErrorType,
    message: string,
    public readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get statusCode(): number {
    return DOMAIN_ERROR_STATUS[this.type];
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super('NOT_FOUND', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code?: string, params?: ErrorParams) {
    super('CONFLICT', message);
    this.code = code;
    this.params = params;
  }
}

export class InvalidDataError extends DomainError {
  constructor(message: string, errors?: FieldError[]) {
    super('INVALID_DATA', message, errors);
  }
}
