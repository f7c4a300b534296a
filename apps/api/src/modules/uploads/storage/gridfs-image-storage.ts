import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { mongo, type Connection } from 'mongoose';
import { ImageStorage, isStoredName } from './image-storage';
import { UPLOADS_URL_PREFIX } from './local-disk-image-storage';

/** The GridFS bucket of uploaded images (collections images.files and images.chunks). */
export const IMAGES_BUCKET = 'images';
/** Recently served images kept in memory, up to this many bytes: their bytes never change. */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Keeps images in MongoDB GridFS, so that every API instance over the database serves every image
 * (IMAGE_STORAGE=gridfs, the default). Names and URLs are those of the disk storage: content-hashed
 * names under /api/uploads/ (docs/decisions/0093-photo-variants.md).
 */
@Injectable()
export class GridFsImageStorage extends ImageStorage {
  private bucketOf?: mongo.GridFSBucket;
  /** Insertion-ordered: the oldest entries go first once the byte budget is spent. */
  private readonly cache = new Map<string, Buffer>();
  private cachedBytes = 0;

  constructor(@InjectConnection() private readonly connection: Connection) {
    super();
  }

  private async bucket(): Promise<mongo.GridFSBucket> {
    if (this.bucketOf) return this.bucketOf;
    const db = this.connection.db ?? (await this.connection.asPromise()).db;
    this.bucketOf = new mongo.GridFSBucket(db!, { bucketName: IMAGES_BUCKET });
    return this.bucketOf;
  }

  async put(name: string, buffer: Buffer, contentType: string): Promise<string> {
    if (!isStoredName(name)) throw new Error(`not an image name: ${name}`);
    const bucket = await this.bucket();
    // a content-hashed name already stored holds the same bytes
    if (!(await bucket.find({ filename: name }, { limit: 1 }).hasNext())) {
      await new Promise<void>((resolve, reject) => {
        const upload = bucket.openUploadStream(name, { metadata: { contentType } });
        upload.once('error', reject).once('finish', () => resolve());
        upload.end(buffer);
      });
    }
    return `${UPLOADS_URL_PREFIX}${name}`;
  }

  async read(name: string): Promise<Buffer | undefined> {
    if (!isStoredName(name)) return undefined;
    const cached = this.cache.get(name);
    if (cached) return cached;
    const bucket = await this.bucket();
    const file = await bucket.find({ filename: name }, { limit: 1 }).next();
    if (!file) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    this.remember(name, bytes);
    return bytes;
  }

  private remember(name: string, bytes: Buffer): void {
    if (bytes.length > CACHE_BYTES / 8) return;
    this.cache.set(name, bytes);
    this.cachedBytes += bytes.length;
    for (const [oldest, old] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(oldest);
      this.cachedBytes -= old.length;
    }
  }
}
