import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CartModule } from '../cart/cart.module';
import { CatalogModule } from '../catalog/catalog.module';
import { UsersModule } from '../users/users.module';
import { OrderNumbersModule } from './order-numbers.module';
import { OrdersController } from './orders.controller';
import { OrderReportsService } from './order-reports.service';
import { OrdersService } from './orders.service';
import { Order, OrderSchema } from './schemas/order.schema';
import { OrderRequest, OrderRequestSchema } from './schemas/order-request.schema';

export { toOrderView, type OrderView } from './order.view';
export { OrdersService } from './orders.service';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Order.name, schema: OrderSchema },
      { name: OrderRequest.name, schema: OrderRequestSchema },
    ]),
    CatalogModule,
    CartModule,
    OrderNumbersModule,
    UsersModule,
  ],
  controllers: [OrdersController],
  providers: [OrdersService, OrderReportsService],
  exports: [OrdersService, OrderReportsService],
})
export class OrdersModule {}
