import { Injectable } from '@nestjs/common';
import { InvalidDataError } from '../../common/errors/domain-error';
import { convertPhoto, type ConvertedPhoto } from './photo-variants';
import { contentTypeOf, detectImage, ImageStorage, isStoredName } from './storage/image-storage';

export const ONLY_IMAGES = 'Only PNG, JPEG, GIF or WebP images are allowed';
export const UNREADABLE_IMAGE = 'The image could not be read';

export interface IncomingImage {
  originalname: string;
  buffer: Buffer;
  size: number;
}

@Injectable()
export class UploadsService {
  constructor(private readonly storage: ImageStorage) {}

  /**
   * Checks every file, converts every photo (docs/decisions/0093-photo-variants.md), then stores
   * them all: one bad file refuses the whole upload and nothing is stored.
   */
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
    const converted: { file: IncomingImage; contentType: string; photo: ConvertedPhoto }[] = [];
    for (const { file, kind } of checked) {
      let photo: ConvertedPhoto;
      try {
        photo = await convertPhoto(file.buffer);
      } catch {
        throw new InvalidDataError(
          UNREADABLE_IMAGE,
          [{ field: 'images', message: `${file.originalname}: ${UNREADABLE_IMAGE}` }],
          'INVALID_UPLOAD',
        );
      }
      converted.push({ file, contentType: kind.contentType, photo });
    }
    const saved = [];
    for (const { file, contentType, photo } of converted) {
      const urls = new Map<string, string>();
      // the copies first, the product's image last: a stored image URL always has all its copies
      for (const copy of [...photo.files.slice(1), photo.files[0]])
        urls.set(copy.name, await this.storage.put(copy.name, copy.bytes, copy.contentType));
      saved.push({
        url: urls.get(photo.name)!,
        originalName: file.originalname,
        contentType,
        size: file.size,
        width: photo.width,
        height: photo.height,
        placeholder: photo.placeholder,
        variants: photo.files.slice(1).map((copy) => ({
          url: urls.get(copy.name)!,
          width: copy.width,
          type: copy.contentType,
          size: copy.bytes.length,
        })),
      });
    }
    return saved;
  }

  /** The bytes and content type of a stored image, or undefined for any other name. */
  async readImage(name: string) {
    if (!isStoredName(name)) return undefined;
    const buffer = await this.storage.read(name);
    return buffer ? { buffer, contentType: contentTypeOf(name) } : undefined;
  }
}
