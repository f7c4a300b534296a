import { Module } from '@nestjs/common';

/** Filled in by the contacts work (see the issues). */
@Module({})
export class ContactsModule {}
