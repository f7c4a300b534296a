import './observability/tracing-preload'; // first: traces hook the modules below as they load
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, listen } from './bootstrap';
import { readLogOptions } from './common/logging';
import { ConfigError, loadConfig } from './config';

/** After SIGTERM/SIGINT, in-flight requests get this long to finish before the process gives up. */
const SHUTDOWN_GRACE_MS = 15000;

/**
 * Nest's shutdown hooks (enabled in bootstrap.ts with useProcessExit) stop accepting connections,
 * wait for in-flight requests, close the database and exit 0. This only adds a deadline, so that a
 * stuck request or a silent keep-alive client can never keep a stopping process alive.
 */
function exitAfterGracePeriod(): void {
  const logger = new Logger('Shutdown');
  let armed = false;
  const arm = (signal: NodeJS.Signals) => {
    if (armed) return;
    armed = true;
    logger.log(`${signal} received: finishing in-flight requests`);
    setTimeout(() => {
      logger.error(`Requests still running after ${SHUTDOWN_GRACE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.once('SIGTERM', arm);
  process.once('SIGINT', arm);
}

async function main(): Promise<void> {
  let config;
  let logging;
  try {
    config = loadConfig();
    logging = readLogOptions(process.env, config.nodeEnv);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const app = await createApp(config, { logging });
  exitAfterGracePeriod();
  await listen(app, config);
}

main().catch((error) => {
  new Logger('Bootstrap').error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
