import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CartModule } from '../cart/cart.module';
import { CouponsModule } from '../coupons/coupons.module';
import { CatalogModule } from '../catalog/catalog.module';
import { UsersModule } from '../users/users.module';
import { GuestOrders } from './guest-orders.service';
import { GuestOrderTokens } from './guest-order-tokens';
import { OrderAccessGuard, OrderPlacerGuard } from './order-access.guard';
import { OrderIdempotency } from './order-idempotency.service';
import { OrderNumbersModule } from './order-numbers.module';
import { OrderNotes } from './order-notes.service';
import { OrderPayments } from './order-payments.service';
import { OrderPlacement } from './order-placement.service';
import { OrderQueries } from './order-queries.service';
import { OrderReportsService } from './order-reports.service';
import { OrderStatusService } from './order-status.service';
import { OrdersController } from './orders.controller';
import { Order, OrderSchema } from './schemas/order.schema';
import { OrderRequest, OrderRequestSchema } from './schemas/order-request.schema';

export { toOrderView, type OrderRecord, type OrderView } from './order.view';
export { GuestOrders } from './guest-orders.service';
export { OrderIdempotency } from './order-idempotency.service';
export { GuestOrderTokens } from './guest-order-tokens';
export { CurrentViewer, OrderAccessGuard, ORDER_TOKEN_HEADER, type OrderViewer } from './order-access.guard';
export { OrderNotes } from './order-notes.service';
export { OrderPayments } from './order-payments.service';
export { OrderPlacement } from './order-placement.service';
export { OrderQueries, type OrderListFilter } from './order-queries.service';
export { OrderStatusService } from './order-status.service';

/**
 * Orders, one service per concern: placement (with OrderIdempotency for the Idempotency-Key), the
 * status machine, the payment state (written for the payments module), reading and listing, and
 * the dashboard's reports.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Order.name, schema: OrderSchema },
      { name: OrderRequest.name, schema: OrderRequestSchema },
    ]),
    CatalogModule,
    CartModule,
    CouponsModule,
    OrderNumbersModule,
    UsersModule,
  ],
  controllers: [OrdersController],
  providers: [
    OrderPlacement,
    OrderIdempotency,
    OrderStatusService,
    OrderPayments,
    OrderNotes,
    OrderQueries,
    OrderReportsService,
    GuestOrders,
    GuestOrderTokens,
    OrderAccessGuard,
    OrderPlacerGuard,
  ],
  exports: [
    GuestOrders,
    GuestOrderTokens,
    OrderAccessGuard,
    OrderStatusService,
    OrderPayments,
    OrderNotes,
    OrderQueries,
    OrderReportsService,
  ],
})
export class OrdersModule {}
