import { Module } from '@nestjs/common';

/** Filled in by the reviews work (see the issues). */
@Module({})
export class ReviewsModule {}
