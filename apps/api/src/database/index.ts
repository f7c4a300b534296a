export * from './engine';
export * from './database.module';
export * from './unavailable';
