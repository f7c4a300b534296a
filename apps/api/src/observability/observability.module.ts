import { Global, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ShopSignalsModule } from '../common/metrics/shop-signals';
import { ShopMetrics } from './metrics';
import { stopTracing } from './tracing';

/** At shutdown, the spans still buffered are sent (nothing when tracing is off). */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

/**
 * What an operator watches (docs/operations.md 'Metrics' and 'Traces'): the Prometheus metrics of
 * this app. Traces are set up before Nest loads (tracing.ts, first import of main.ts).
 */
@Global()
@Module({ imports: [ShopSignalsModule], providers: [ShopMetrics, TracingShutdown], exports: [ShopMetrics] })
export class ObservabilityModule {}
