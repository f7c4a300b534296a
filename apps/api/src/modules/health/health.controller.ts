import { Controller, Get, Header, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Connection } from 'mongoose';
import { ErrorDto } from '../../common/error.dto';
import { DATABASE_ENGINE, type DatabaseEngine } from '../../database';
import { GracefulShutdown } from './graceful-shutdown.service';
import { ReadinessService } from './readiness.service';

class DatabaseHealthDto {
  @ApiProperty({ example: true }) ok!: boolean;
  @ApiProperty({ enum: ['external', 'memory-server', 'embedded'] }) engine!: string;
  @ApiProperty({ example: 2, description: 'Round trip of the ping command' }) pingMs!: number;
}

class HealthDto {
  @ApiProperty({ example: 'ok' }) status!: string;
  @ApiProperty({ type: DatabaseHealthDto }) database!: DatabaseHealthDto;
  @ApiProperty({ example: 12.5, description: 'Seconds since the API started' }) uptime!: number;
}

class LiveDto {
  @ApiProperty({ example: 'ok' }) status!: string;
  @ApiProperty({ example: 12.5, description: 'Seconds since the API started' }) uptime!: number;
}

class ReadinessChecksDto {
  @ApiProperty({ enum: ['ok', 'failing'], description: 'The database answers a ping within a second' })
  database!: string;
  @ApiProperty({ enum: ['ok', 'failing'], description: "Every model's indexes are built" }) indexes!: string;
  @ApiProperty({
    enum: ['ok', 'off', 'failing'],
    description: 'The outbox worker runs (off: not on this instance)',
  })
  outbox!: string;
  @ApiProperty({ enum: ['ok', 'failing'], description: 'Failing once the process is shutting down' })
  shutdown!: string;
}

class ReadyDto {
  @ApiProperty({ enum: ['ready', 'not_ready'] }) status!: string;
  @ApiProperty({ type: [String], example: [], description: 'The checks that fail (empty when ready)' })
  failing!: string[];
  @ApiProperty({ type: ReadinessChecksDto }) checks!: ReadinessChecksDto;
}

const PING_TIMEOUT_MS = 3000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(DATABASE_ENGINE) private readonly engine: DatabaseEngine,
    private readonly shutdown: GracefulShutdown,
    private readonly readiness: ReadinessService,
  ) {}

  @Get('live')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Liveness: the process answers (200 always; nothing else is checked)' })
  @ApiOkResponse({ type: LiveDto })
  live(): LiveDto {
    return { status: 'ok', uptime: Math.round(process.uptime() * 10) / 10 };
  }

  @Get('ready')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Readiness: database reachable, indexes built, outbox worker running, not shutting down',
  })
  @ApiOkResponse({ type: ReadyDto, description: 'Ready: send it requests' })
  @ApiServiceUnavailableResponse({
    type: ReadyDto,
    description: "Not ready: 'failing' names the checks that fail",
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadyDto> {
    const { ready, checks, failing } = await this.readiness.check();
    if (!ready) res.status(503);
    return { status: ready ? 'ready' : 'not_ready', failing, checks };
  }

  @Get()
  @ApiOperation({ summary: 'Liveness and database ping, naming the database engine' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({
    type: ErrorDto,
    description: 'The database does not answer, or the API is shutting down',
  })
  async health(): Promise<HealthDto> {
    if (this.shutdown.shuttingDown) throw new ServiceUnavailableException('Shutting down');
    const started = process.hrtime.bigint();
    try {
      const db = this.connection.db;
      if (!db || this.connection.readyState !== 1) throw new Error('not connected');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        db.command({ ping: 1 }),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS))),
      ]).finally(() => clearTimeout(timer));
    } catch {
      throw new ServiceUnavailableException('Database unavailable');
    }
    const pingMs = Number(process.hrtime.bigint() - started) / 1e6;
    return {
      status: 'ok',
      database: { ok: true, engine: this.engine.kind, pingMs: Math.round(pingMs * 100) / 100 },
      uptime: Math.round(process.uptime() * 10) / 10,
    };
  }
}
