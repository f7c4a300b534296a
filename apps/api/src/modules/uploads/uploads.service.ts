import { Injectable } from '@nestjs/common';
import { InvalidDataError } from '../../common/errors/domain-error';
import { CONTENT_TYPES, detectImage, ImageStorage, STORED_NAME } from './storage/image-storage';

export const ONLY_IMAGES = 'Only PNG, JPG or GIF images are allowed';

export interface IncomingImage {
  originalname: string;
  buffer: Buffer;
  size: number;
}

@Injectable()
export class UploadsService {
  constructor(private readonly storage: ImageStorage) {}

  /** Checks every file first, then stores them all: one bad file refuses the whole upload. */
  async saveImages(files: IncomingImage[] | undefined) {
    if (!files?.length) {
      throw new InvalidDataError(
        `No images received: send them as multipart field 'images'`,
        [{ field: 'images', message: 'At least one image is required' }],
        'NO_IMAGES',
      );
    }
    const checked = files.map((file) => {
      const kind = detectImage(file.buffer);
      if (!kind)
        throw new InvalidDataError(
          ONLY_IMAGES,
          [{ field: 'images', message: `${file.originalname}: ${ONLY_IMAGES}` }],
          'ONLY_IMAGES',
        );
      return { file, kind };
    });
    const saved = [];
    for (const { file, kind } of checked) {
      const url = await this.storage.save(file.buffer, kind.ext);
      saved.push({ url, originalName: file.originalname, contentType: kind.contentType, size: file.size });
    }
    return saved;
  }

  /** The bytes and content type of a stored image, or undefined for any other name. */
  async readImage(name: string) {
    const match = STORED_NAME.exec(name);
    if (!match) return undefined;
    const buffer = await this.storage.read(name);
    return buffer
      ? { buffer, contentType: CONTENT_TYPES[match[1] as keyof typeof CONTENT_TYPES] }
      : undefined;
  }
}
