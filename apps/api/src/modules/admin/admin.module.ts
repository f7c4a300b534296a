import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ContactsModule } from '../contacts/contacts.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsModule } from '../payments/payments.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { AdminAuditController } from './admin-audit.controller';
import { AdminContactsController } from './admin-contacts.controller';
import { AdminDashboardController } from './admin-dashboard.controller';
import { AdminExportsController } from './admin-exports.controller';
import { AdminNotificationsController } from './admin-notifications.controller';
import { AdminOrdersController } from './admin-orders.controller';
import { AdminProductsController } from './admin-products.controller';
import { AdminReviewsController } from './admin-reviews.controller';
import { AdminUsersController } from './admin-users.controller';
import { DashboardService } from './dashboard.service';
import { SalesBreakdownService } from './sales-breakdown.service';

/**
 * The back office API under /api/admin/*: dashboard, orders, users, products, contacts, reviews,
 * the outbox and local mail, the audit trail; all admin-only and following ra-data-simple-rest for
 * lists. The list protocols (react-admin's and the spec's second shape, modules/admin/list) are parsed
 * here and nowhere else: the owning modules' services take typed queries (common/list-query). It owns
 * no data: every route calls the owning module's service, which also audits. Settings routes live in
 * their own module.
 */
@Module({
  // each resource is served by the service of the module that owns it (users and accounts through the global AuthModule)
  imports: [CatalogModule, OrdersModule, PaymentsModule, ContactsModule, ReviewsModule, NotificationsModule],
  controllers: [
    AdminDashboardController,
    // before the orders and users controllers: `orders/export.csv` is not an order id
    AdminExportsController,
    AdminOrdersController,
    AdminUsersController,
    AdminProductsController,
    AdminContactsController,
    AdminReviewsController,
    AdminNotificationsController,
    AdminAuditController,
  ],
  providers: [DashboardService, SalesBreakdownService],
})
export class AdminModule {}
