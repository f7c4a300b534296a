export { startEmbeddedMongo, type EmbeddedMongo, type EmbeddedMongoOptions } from './server';
export { MongoCommandError } from './errors';
