import { Module } from '@nestjs/common';
import { GracefulShutdown } from './graceful-shutdown.service';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness.service';

@Module({ controllers: [HealthController], providers: [GracefulShutdown, ReadinessService] })
export class HealthModule {}
