import { Module } from '@nestjs/common';

/** Filled in by the users work (see the issues). */
@Module({})
export class UsersModule {}
