import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Connection } from 'mongoose';
import { ErrorDto } from '../../common/error.dto';
import { DATABASE_ENGINE, type DatabaseEngine } from '../../database';
import { GracefulShutdown } from './graceful-shutdown.service';

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

const PING_TIMEOUT_MS = 3000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(DATABASE_ENGINE) private readonly engine: DatabaseEngine,
    private readonly shutdown: GracefulShutdown,
  ) {}

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
