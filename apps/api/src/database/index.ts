export * from './engine';
export * from './database.module';
