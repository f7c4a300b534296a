import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ContactsModule } from '../contacts/contacts.module';
import { OrdersModule } from '../orders/orders.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { AdminContactsController } from './admin-contacts.controller';
import { AdminDashboardController } from './admin-dashboard.controller';
import { AdminOrdersController } from './admin-orders.controller';
import { AdminProductsController } from './admin-products.controller';
import { AdminReviewsController } from './admin-reviews.controller';
import { AdminUsersController } from './admin-users.controller';
import { DashboardService } from './dashboard.service';

/**
 * The back office API under /api/admin/*: dashboard, orders, users, products, contacts, reviews,
 * all admin-only and following ra-data-simple-rest for lists (modules/admin/list/react-admin).
 * It owns no data: every route calls the owning module's service, which also audits. Settings and audit routes live in
 * their own modules.
 */
@Module({
  // each resource is served by the service of the module that owns it (users and accounts through the global AuthModule)
  imports: [CatalogModule, OrdersModule, ContactsModule, ReviewsModule],
  controllers: [
    AdminDashboardController,
    AdminOrdersController,
    AdminUsersController,
    AdminProductsController,
    AdminContactsController,
    AdminReviewsController,
  ],
  providers: [DashboardService],
})
export class AdminModule {}
