// The first import of main.ts: traces start before Nest, Express and the MongoDB driver are loaded.
import { startTracing } from './tracing';

startTracing();
