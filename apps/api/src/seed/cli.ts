import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { loadConfig } from '../config';
import { SeedService } from './seed.service';

/** `npm run seed`: adds the demo catalogue, accounts, reviews and orders that are missing. */
async function main(): Promise<void> {
  const config = { ...loadConfig(), seedOnEmpty: false };
  const app = await NestFactory.createApplicationContext(AppModule.register(config), {
    logger: ['log', 'warn', 'error'],
  });
  try {
    const report = await app.get(SeedService).seed();
    console.log(
      `Seed done: ${report.products} products, ${report.users} users, ${report.reviews} reviews, ${report.orders} orders`,
    );
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
