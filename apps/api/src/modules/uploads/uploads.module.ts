import { Module } from '@nestjs/common';

/** Filled in by the uploads work (see the issues). */
@Module({})
export class UploadsModule {}
