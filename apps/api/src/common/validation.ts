import { ValidationError, ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { ETHIOPIAN_REGIONS, parseAmount } from '@shop/shared';
import {
  getMetadataStorage,
  registerDecorator,
  ValidationTypes,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { InvalidDataError, type ErrorCode, type FieldError } from './errors/domain-error';

/** Stable codes of the validation layer's refusals (texts in libs/i18n under `errors.<CODE>`). */
export const VALIDATION_CODES = {
  /** Any other field rule (type, length, enum...). */
  failed: 'VALIDATION_FAILED',
  /** A NUL character or an unpaired UTF-16 surrogate in a text, a key, a query or a route parameter. */
  text: 'INVALID_TEXT',
  /** `null` for a field whose contract does not say that null clears it. */
  null: 'NULL_NOT_ALLOWED',
  /** A money amount that is not a finite number of ETB with at most two decimals within its bounds. */
  amount: 'INVALID_AMOUNT',
  /** A phone number that is not an Ethiopian mobile number (+2519/+2517, 09/07...). */
  phone: 'INVALID_PHONE',
  /** A region that is not one of Ethiopia's regions or chartered cities. */
  region: 'INVALID_REGION',
} as const;

/** The code of a field rule that has a finer one than VALIDATION_FAILED. */
const RULE_CODES: Record<string, string> = {
  isAmount: VALIDATION_CODES.amount,
  isEthiopianMobile: VALIDATION_CODES.phone,
  isEthiopianRegion: VALIDATION_CODES.region,
};

/** An E.164 Ethiopian mobile number (a `@Transform` normalises 09.../07... before the check). */
export const ETHIOPIAN_MOBILE_E164 = /^\+251[79]\d{8}$/;

/** The field must be an Ethiopian mobile number in E.164 (normalised beforehand); refused with INVALID_PHONE. */
export function IsEthiopianMobile(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEthiopianMobile',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && ETHIOPIAN_MOBILE_E164.test(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'phone'} must be an Ethiopian mobile number (+2519..., +2517..., 09... or 07...)`,
      },
    });
}

const REGION_NAMES = new Set(ETHIOPIAN_REGIONS.map((r) => r.en));

/**
 * The field must be the English name of one of Ethiopia's regions or chartered cities (a `@Transform`
 * maps Amharic names and codes to it beforehand); refused with INVALID_REGION.
 */
export function IsEthiopianRegion(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEthiopianRegion',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && REGION_NAMES.has(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'state'} must be one of Ethiopia’s regions or chartered cities`,
      },
    });
}

export type FieldErrorWithCode = FieldError & { code?: string };

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string is text the shop can store, search and show: no NUL, no unpaired surrogate. */
export function isCleanText(text: string): boolean {
  return !BAD_TEXT.test(text);
}

export function badTextMessage(field: string): string {
  return `${field} must not contain NUL characters or unpaired UTF-16 surrogates`;
}

/**
 * Every string (values and keys) of a client-sent value that is not clean text, with its path;
 * walked without recursion (bodies are depth-limited before this, queries are flat or shallow).
 */
export function badTextFields(value: unknown, root: string): FieldErrorWithCode[] {
  const found: FieldErrorWithCode[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length && found.length < 20) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (!isCleanText(node))
        found.push({ field: path, message: badTextMessage(path), code: VALIDATION_CODES.text });
    } else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isCleanText(key)) {
          found.push({
            field: path || 'body',
            message: badTextMessage(`a key of ${path || 'the body'}`),
            code: VALIDATION_CODES.text,
          });
          continue;
        }
        stack.push([child, childPath]);
      }
    }
  }
  return found;
}

const NULLABLE = 'isNullable';

/**
 * Marks an optional field whose contract says that `null` clears it (e.g. the profile's phone).
 * Every other field refuses `null` with NULL_NOT_ALLOWED, whether it is optional or not.
 */
export function Nullable(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: NULLABLE,
      target: target.constructor,
      propertyName: propertyName as string,
      validator: { validate: () => true },
    });
}

/**
 * Narrows class-validator's `@IsOptional()` from "may be left out or null" to "may be left out":
 * the root cause of `null` reaching `.trim()`, money conversions and stored settings. Fields marked
 * `@Nullable()` keep skipping their rules for null. Applied to every DTO (including mapped types such
 * as PartialType, which copy the metadata) before it is validated; cheap when nothing changed.
 */
let narrowedCount = -1;
function narrowIsOptional(): void {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<
      object,
      { type: string; name?: string; propertyName: string; constraints: unknown[] }[]
    >;
  };
  const all = [...storage.validationMetadatas.values()];
  const count = all.reduce((n, list) => n + list.length, 0);
  if (count === narrowedCount) return;
  narrowedCount = count;
  for (const list of all) {
    const nullable = new Set(
      list
        .filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION && m.name === NULLABLE)
        .map((m) => m.propertyName),
    );
    for (const m of list) {
      if (m.type !== ValidationTypes.CONDITIONAL_VALIDATION || m.name !== 'isOptional') continue;
      if (nullable.has(m.propertyName)) continue;
      const property = m.propertyName;
      m.constraints = [(object: Record<string, unknown>) => object[property] !== undefined];
    }
  }
}

/**
 * A money amount in ETB as clients send it: a JSON number, finite, at most two decimals in any
 * notation, between `min` and `max`. Parsed once by `parseAmount` (libs/shared) into santim, so
 * the services' conversion of a validated amount is exact.
 */
export function IsAmount(
  bounds: { min?: number; max: number },
  options?: ValidationOptions,
): PropertyDecorator {
  const min = bounds.min ?? 0;
  return (target, propertyName) =>
    registerDecorator({
      name: 'isAmount',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => {
          const santim = parseAmount(value);
          return santim !== null && santim >= min * 100 && santim <= bounds.max * 100;
        },
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'amount'} must be an amount in ETB between ${min} and ${bounds.max} with at most two decimals`,
      },
    });
}

function flatten(errors: ValidationError[], parent = ''): FieldErrorWithCode[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    if (error.value === null && error.constraints)
      return [{ field, message: `${field} must not be null`, code: VALIDATION_CODES.null }];
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) => ({
      field,
      message,
      ...(RULE_CODES[rule] ? { code: RULE_CODES[rule] } : {}),
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** The error of a refused request: one code when every field error shares it, else VALIDATION_FAILED. */
export function validationError(errors: FieldErrorWithCode[]): InvalidDataError {
  const codes = new Set(errors.map((e) => e.code ?? VALIDATION_CODES.failed));
  const code = (codes.size === 1 ? [...codes][0] : VALIDATION_CODES.failed) as ErrorCode;
  return new InvalidDataError('Validation failed', errors, code);
}

const CHECKED_ARGUMENTS = new Set<ArgumentMetadata['type']>(['body', 'query', 'param']);

/**
 * The one validation layer: every body, query and route parameter is first checked for unclean
 * text (whatever its declared type, so raw bodies and react-admin queries are covered too), then
 * validated against its DTO with whitelisting (unknown fields and operator objects are refused).
 */
class ShopValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (CHECKED_ARGUMENTS.has(metadata.type)) {
      const root = metadata.type === 'body' ? '' : (metadata.data ?? '');
      const bad = badTextFields(value, root);
      if (bad.length) throw validationError(bad);
    }
    narrowIsOptional();
    return super.transform(value, metadata);
  }
}

/** Whitelisting validation: unknown fields and operator objects are refused with field errors. */
export function createValidationPipe(): ValidationPipe {
  return new ShopValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => validationError(flatten(errors)),
  });
}
