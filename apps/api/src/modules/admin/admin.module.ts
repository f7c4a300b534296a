import { Module } from '@nestjs/common';

/** Filled in by the admin work (see the issues). */
@Module({})
export class AdminModule {}
