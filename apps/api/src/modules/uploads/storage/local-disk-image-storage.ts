import { Inject, Injectable } from '@nestjs/common';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { APP_CONFIG, type AppConfig } from '../../../config';
import { ImageStorage, isStoredName } from './image-storage';

export const UPLOADS_URL_PREFIX = '/api/uploads/';

/** Keeps images in config.uploadDir under their content-hashed names; the uploads controller serves them. */
@Injectable()
export class LocalDiskImageStorage extends ImageStorage {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
  }

  async put(name: string, buffer: Buffer): Promise<string> {
    if (!isStoredName(name)) throw new Error(`not an image name: ${name}`);
    await mkdir(this.config.uploadDir, { recursive: true });
    try {
      // 'wx': a name already there holds the same bytes (its name is their hash)
      await writeFile(path.join(this.config.uploadDir, name), buffer, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return `${UPLOADS_URL_PREFIX}${name}`;
  }

  async read(name: string): Promise<Buffer | undefined> {
    if (!isStoredName(name)) return undefined; // no path separators or dots can get through
    try {
      return await readFile(path.join(this.config.uploadDir, name));
    } catch {
      return undefined;
    }
  }
}
