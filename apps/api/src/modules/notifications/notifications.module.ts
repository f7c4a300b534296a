import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdminNotificationsController } from './admin-notifications.controller';
import { NotificationsService } from './notifications.service';
import { NotificationsWorker } from './notifications.worker';
import { Notification, NotificationSchema } from './schemas/notification.schema';

/**
 * The outbox (`notifications` collection), its worker and transports. Global: orders, payments,
 * contacts and the catalogue call `NotificationsService.enqueue(session, event)` in their transactions.
 */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: Notification.name, schema: NotificationSchema }])],
  controllers: [AdminNotificationsController],
  providers: [NotificationsService, NotificationsWorker],
  exports: [NotificationsService],
})
export class NotificationsModule {}
