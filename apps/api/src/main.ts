import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, listen } from './bootstrap';
import { ConfigError, loadConfig } from './config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const app = await createApp(config);
  await listen(app, config);
}

main().catch((error) => {
  new Logger('Bootstrap').error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
