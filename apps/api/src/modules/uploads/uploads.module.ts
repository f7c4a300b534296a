import { Module } from '@nestjs/common';
import { ImageStorage } from './storage/image-storage';
import { LocalDiskImageStorage } from './storage/local-disk-image-storage';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/** Product image uploads; the storage is an interface, local disk by default. */
@Module({
  controllers: [UploadsController],
  providers: [UploadsService, { provide: ImageStorage, useClass: LocalDiskImageStorage }],
  exports: [UploadsService, ImageStorage],
})
export class UploadsModule {}
