import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { APP_CONFIG, type AppConfig } from '../../../config';
import { ImageStorage, STORED_NAME, type ImageKind } from './image-storage';

export const UPLOADS_URL_PREFIX = '/api/uploads/';

/** Keeps images in config.uploadDir under random names; the uploads controller serves them. */
@Injectable()
export class LocalDiskImageStorage extends ImageStorage {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
  }

  async save(buffer: Buffer, ext: ImageKind['ext']): Promise<string> {
    await mkdir(this.config.uploadDir, { recursive: true });
    const name = `${randomUUID()}.${ext}`;
    // 'wx': never overwrite, even on the astronomically unlikely name collision
    await writeFile(path.join(this.config.uploadDir, name), buffer, { flag: 'wx' });
    return `${UPLOADS_URL_PREFIX}${name}`;
  }

  async read(name: string): Promise<Buffer | undefined> {
    if (!STORED_NAME.test(name)) return undefined; // no path separators or dots can get through
    try {
      return await readFile(path.join(this.config.uploadDir, name));
    } catch {
      return undefined;
    }
  }
}
