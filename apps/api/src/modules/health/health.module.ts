import { Module } from '@nestjs/common';
import { GracefulShutdown } from './graceful-shutdown.service';
import { HealthController } from './health.controller';

@Module({ controllers: [HealthController], providers: [GracefulShutdown] })
export class HealthModule {}
