import { Module } from '@nestjs/common';

/** Filled in by the payments work (see the issues). */
@Module({})
export class PaymentsModule {}
