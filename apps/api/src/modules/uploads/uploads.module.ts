import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config';
import { GridFsImageStorage } from './storage/gridfs-image-storage';
import { ImageStorage } from './storage/image-storage';
import { LocalDiskImageStorage } from './storage/local-disk-image-storage';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/**
 * Product image uploads; the storage is an interface: MongoDB GridFS by default (every instance
 * serves every image), local disk with IMAGE_STORAGE=disk (UPLOAD_DIR).
 */
@Module({
  controllers: [UploadsController],
  providers: [
    UploadsService,
    GridFsImageStorage,
    LocalDiskImageStorage,
    {
      provide: ImageStorage,
      inject: [APP_CONFIG, GridFsImageStorage, LocalDiskImageStorage],
      useFactory: (config: AppConfig, gridfs: GridFsImageStorage, disk: LocalDiskImageStorage) =>
        config.imageStorage === 'disk' ? disk : gridfs,
    },
  ],
  exports: [UploadsService, ImageStorage],
})
export class UploadsModule {}
