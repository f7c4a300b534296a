import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ContactsModule } from '../contacts/contacts.module';
import { OrdersModule } from '../orders/orders.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { AdminContactsController } from './admin-contacts.controller';
import { AdminContactsService } from './admin-contacts.service';
import { AdminDashboardController } from './admin-dashboard.controller';
import { AdminOrdersController } from './admin-orders.controller';
import { AdminOrdersService } from './admin-orders.service';
import { AdminProductsController } from './admin-products.controller';
import { AdminProductsService } from './admin-products.service';
import { AdminReviewsController } from './admin-reviews.controller';
import { AdminReviewsService } from './admin-reviews.service';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersService } from './admin-users.service';
import { DashboardService } from './dashboard.service';

/**
 * The back office API under /api/admin/*: dashboard, orders, users, products, contacts, reviews,
 * all admin-only and following ra-data-simple-rest for lists. Settings and audit routes live in
 * their own modules.
 */
@Module({
  // models come from the modules that own them (Order, Product, Contact, Review; User from the global AuthModule)
  imports: [CatalogModule, OrdersModule, ContactsModule, ReviewsModule],
  controllers: [
    AdminDashboardController,
    AdminOrdersController,
    AdminUsersController,
    AdminProductsController,
    AdminContactsController,
    AdminReviewsController,
  ],
  providers: [
    DashboardService,
    AdminOrdersService,
    AdminUsersService,
    AdminProductsService,
    AdminContactsService,
    AdminReviewsService,
  ],
})
export class AdminModule {}
