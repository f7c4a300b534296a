import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CacheModule } from './cache/cache.module';
import { ChangesModule } from './common/changes';
import { ClockModule } from './common/clock';
import { ShopSignalsModule } from './common/metrics/shop-signals';
import { LeaseModule } from './common/lease';
import { RateLimitModule } from './common/rate-limit';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { MaintenanceGuard } from './modules/auth/maintenance.guard';
import { ConfigModule, type AppConfig } from './config';
import { DatabaseModule } from './database';
import { AuthModule } from './modules/auth/auth.module';
import { CatalogModule } from './modules/catalog/catalog.module';
import { UsersModule } from './modules/users/users.module';
import { ReviewsModule } from './modules/reviews/reviews.module';
import { UploadsModule } from './modules/uploads/uploads.module';
import { CartModule } from './modules/cart/cart.module';
import { PromotionsModule } from './modules/promotions/promotions.module';
import { WishlistModule } from './modules/wishlist/wishlist.module';
import { OrdersModule } from './modules/orders/orders.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { ContactsModule } from './modules/contacts/contacts.module';
import { AdminModule } from './modules/admin/admin.module';
import { SettingsModule } from './modules/settings/settings.module';
import { AuditModule } from './modules/audit/audit.module';
import { HealthModule } from './modules/health/health.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { SeedModule } from './seed/seed.module';
import { ObservabilityModule } from './observability/observability.module';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        ChangesModule,
        ClockModule,
        ShopSignalsModule,
        CacheModule,
        RateLimitModule,
        LeaseModule,
        SettingsModule,
        AuditModule,
        HealthModule,
        AuthModule,
        NotificationsModule,
        UsersModule,
        CatalogModule,
        PromotionsModule,
        ReviewsModule,
        UploadsModule,
        CartModule,
        WishlistModule,
        OrdersModule,
        PaymentsModule,
        ContactsModule,
        AdminModule,
        SeedModule,
        ObservabilityModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_GUARD, useClass: MaintenanceGuard },
      ],
    };
  }
}
