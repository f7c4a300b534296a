import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import mongoose from 'mongoose';
import { APP_CONFIG, type AppConfig } from '../config';
import { DATABASE_ENGINE, resolveDatabaseEngine, type DatabaseEngine } from './engine';
import { serverSelectionTimeoutFor } from './unavailable';

// Mongoose captures `new Error().stack` on every query's exec() only to decorate the "Query was
// already executed" programming error; on the catalogue's read path that was ~1.5% of the CPU, on a
// cart add about 4%.
mongoose.set('skipOriginalStackTraces', true);

@Global()
@Module({
  providers: [
    {
      provide: DATABASE_ENGINE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => resolveDatabaseEngine(config),
    },
  ],
  exports: [DATABASE_ENGINE],
})
class DatabaseEngineModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_ENGINE) private readonly engine: DatabaseEngine) {}

  async onApplicationShutdown(): Promise<void> {
    await this.engine.stop();
  }
}

/** Owns the Mongoose connection to whichever engine the ladder chose. */
@Module({
  imports: [
    DatabaseEngineModule,
    MongooseModule.forRootAsync({
      imports: [DatabaseEngineModule],
      inject: [DATABASE_ENGINE],
      useFactory: (engine: DatabaseEngine) => ({
        uri: engine.uri,
        dbName: engine.dbName,
        // Bounded waits: an unreachable database answers 503 in seconds, and the driver reconnects by itself.
        ...(serverSelectionTimeoutFor(engine.uri)
          ? { serverSelectionTimeoutMS: serverSelectionTimeoutFor(engine.uri) }
          : {}),
        autoIndex: true,
      }),
    }),
  ],
  exports: [DatabaseEngineModule, MongooseModule],
})
export class DatabaseModule {}
