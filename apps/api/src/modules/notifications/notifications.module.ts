import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { NotificationMessages } from './notification-messages';
import { NotificationsService } from './notifications.service';
import { NotificationsWorker } from './notifications.worker';
import { OutboxAdminService } from './outbox-admin.service';
import { Notification, NotificationSchema } from './schemas/notification.schema';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/**
 * The outbox (`notifications` collection), its worker and transports. Global: orders, payments,
 * contacts and the catalogue call `NotificationsService.enqueue(session, event)` in their transactions.
 */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: Notification.name, schema: NotificationSchema }])],
  providers: [
    NotificationsService,
    NotificationMessages,
    UnsubscribeTokens,
    OutboxAdminService,
    NotificationsWorker,
  ],
  // the back office's outbox routes are in modules/admin
  exports: [NotificationsService, OutboxAdminService],
})
export class NotificationsModule {}
