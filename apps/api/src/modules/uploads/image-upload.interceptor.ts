import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '@shop/shared';
import type { Request, Response } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';
import { DomainError, InvalidDataError } from '../../common/errors/domain-error';

export const UPLOAD_FIELD = 'images';
export const MAX_FILES = UPLOAD_MAX_FILES;
/** "Under 5MB": a file of exactly 5 MiB is refused too (the limits are libs/shared's, as the back office checks them). */
export const MAX_FILE_BYTES = UPLOAD_MAX_BYTES - 1;
export const FILE_TOO_LARGE = 'File size must be less than 5MB';
export const TOO_MANY_FILES = `A maximum of ${MAX_FILES} files can be uploaded at once`;

const parse = multer({
  storage: multer.memoryStorage(),
  limits: {
    fileSize: MAX_FILE_BYTES,
    files: MAX_FILES,
    fields: 10,
    fieldSize: 64 * 1024,
    parts: MAX_FILES + 10,
  },
}).array(UPLOAD_FIELD, MAX_FILES);

/** Maps multer's failures to the API's messages (the spec's size message, a clear count message). */
function toDomainError(error: unknown): DomainError {
  if (error instanceof multer.MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return new DomainError('PAYLOAD_TOO_LARGE', FILE_TOO_LARGE, undefined, 'FILE_TOO_LARGE');
      case 'LIMIT_FILE_COUNT':
        return new InvalidDataError(TOO_MANY_FILES, undefined, 'TOO_MANY_FILES');
      case 'LIMIT_UNEXPECTED_FILE':
        return error.field === UPLOAD_FIELD
          ? new InvalidDataError(TOO_MANY_FILES, undefined, 'TOO_MANY_FILES')
          : new InvalidDataError(
              `Unexpected file field '${error.field ?? ''}': send the images in the field '${UPLOAD_FIELD}'`,
              undefined,
              'UNEXPECTED_FILE_FIELD',
              { field: error.field ?? '', expected: UPLOAD_FIELD },
            );
      default:
        return new InvalidDataError(`Invalid upload: ${error.message}`, undefined, 'INVALID_UPLOAD');
    }
  }
  return new InvalidDataError('Malformed multipart body', undefined, 'MALFORMED_MULTIPART');
}

/** Reads the multipart field `images` into memory with limits, before the handler runs. */
@Injectable()
export class ImageUploadInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    await new Promise<void>((resolve, reject) =>
      parse(request, http.getResponse<Response>(), (error: unknown) =>
        error ? reject(toDomainError(error)) : resolve(),
      ),
    );
    return next.handle();
  }
}
