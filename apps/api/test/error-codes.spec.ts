import { HttpException } from '@nestjs/common';
import { translate } from '@shop/i18n';
import { ERROR_CODES } from '@shop/shared';
import {
  ConflictError,
  DomainError,
  InvalidDataError,
  NotFoundError,
} from '../src/common/errors/domain-error';
import { AllExceptionsFilter } from '../src/common/filters/all-exceptions.filter';

/** Errors travel as codes (docs/decisions/0007-errors-carry-codes.md). */
describe('error codes', () => {
  const body = (error: unknown) => new AllExceptionsFilter().toBody(error);

  it('has an English and a real Amharic text for every code', () => {
    for (const code of ERROR_CODES) {
      const key = `errors.${code}`;
      expect([code, translate('en', key)]).not.toEqual([code, key]);
      expect(translate('am', key)).toMatch(/[\u1200-\u137F]/);
    }
  });

  it('answers the thrower’s code and params, keeping the English message', () => {
    expect(body(new NotFoundError('Product not found', 'PRODUCT_NOT_FOUND'))).toEqual({
      success: false,
      statusCode: 404,
      message: 'Product not found',
      code: 'PRODUCT_NOT_FOUND',
      params: {},
    });
    expect(
      body(
        new ConflictError('Cannot cancel an order that is shipped', 'CANNOT_CANCEL', { status: 'shipped' }),
      ),
    ).toMatchObject({ statusCode: 409, code: 'CANNOT_CANCEL', params: { status: 'shipped' } });
  });

  it('gives every other failure a code: by kind, by shared field code, by HTTP status', () => {
    expect(body(new DomainError('UNAVAILABLE', 'down')).code).toBe('SERVICE_UNAVAILABLE');
    expect(body(new DomainError('FORBIDDEN', 'no')).code).toBe('FORBIDDEN');
    const fields = body(
      new InvalidDataError('Validation failed', [
        { field: 'a', message: 'a is bad', code: 'INVALID_TEXT' },
        { field: 'b', message: 'b is bad', code: 'INVALID_TEXT' },
      ]),
    );
    expect(fields.code).toBe('INVALID_TEXT');
    const mixed = body(new InvalidDataError('Validation failed', [{ field: 'a', message: 'a is bad' }]));
    expect(mixed).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'a', code: 'VALIDATION_FAILED' }],
    });
    expect(body(new HttpException('Too many', 429)).code).toBe('TOO_MANY_REQUESTS');
    expect(body(new Error('boom'))).toMatchObject({ statusCode: 500, code: 'INTERNAL_ERROR', params: {} });
  });
});
