import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model, Types } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { APP_CONFIG, type AppConfig } from '../../config';
import { NotificationsService } from './notifications.service';
import { Notification, type NotificationChannel } from './schemas/notification.schema';
import { NoSmsGateway, AfroMessageGateway } from './transports/afromessage.gateway';
import { LocalMailServer } from './transports/local-mail-server';
import { LocalSmsStore } from './transports/local-sms-store';
import { SmtpTransport } from './transports/smtp.transport';
import type { EmailTransport, SmsGateway } from './transports/transport';

/** A claimed message belongs to its worker this long; a worker that dies lets another take it over after. */
export const LEASE_MS = 60_000;
/** Retries wait backoff × 2^(attempt-1), at most this long. */
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;
const BATCH = 50;

export function mailDirOf(config: AppConfig): string {
  return path.join(config.database.dataDir, 'mail');
}

/** Where the local SMS store keeps SMS (DATA_DIR/sms). */
export function smsDirOf(config: AppConfig): string {
  return path.join(config.database.dataDir, 'sms');
}

/**
 * Whether SMS go to the local store: no SMS gateway (AFROMESSAGE_TOKEN) outside production
 * (docs/decisions/0065-local-sms-store.md). In production without a gateway they stay in the outbox.
 */
export function usesLocalSms(config: AppConfig): boolean {
  return !config.sms.afroMessageToken && config.nodeEnv !== 'production';
}

/**
 * Delivers the outbox: claims one due message at a time with an atomic findOneAndUpdate that sets a
 * lease (so with several API instances only one delivers each message), sends it, and marks it sent,
 * or schedules a retry with exponential backoff, or gives up after the configured attempts.
 * Off in tests unless NOTIFICATIONS_INTERVAL_MS is set.
 */
@Injectable()
export class NotificationsWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Notifications');
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private timer?: NodeJS.Timeout;
  private kickTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private email?: EmailTransport;
  private sms: SmsGateway;
  readonly localMail?: LocalMailServer;

  constructor(
    @InjectModel(Notification.name) private readonly notifications: Model<Notification>,
    private readonly service: NotificationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const s = config.sms;
    this.sms = s.afroMessageToken
      ? new AfroMessageGateway({
          token: s.afroMessageToken,
          baseUrl: s.afroMessageBaseUrl,
          identifier: s.afroMessageIdentifier,
          sender: s.afroMessageSender,
        })
      : new NoSmsGateway();
    if (config.mail.localServer) this.localMail = new LocalMailServer(mailDirOf(config));
  }

  get enabled(): boolean {
    return this.config.notifications.workerIntervalMs > 0;
  }

  /** Started and not stopped: what readiness reports as the outbox worker running (modules/health). */
  get active(): boolean {
    return this.timer !== undefined && !this.stopped;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    const m = this.config.mail;
    if (m.host) {
      this.email = new SmtpTransport(
        { host: m.host, port: m.port, secure: m.secure, user: m.user, password: m.password },
        m.from,
      );
    } else if (this.localMail) {
      const port = await this.localMail.start();
      this.email = new SmtpTransport({ host: '127.0.0.1', port, secure: false }, m.from);
      this.logger.log(
        `No SMTP_HOST: local SMTP server on 127.0.0.1:${port} keeps mail in ${this.localMail.dir}`,
      );
    } else {
      this.logger.warn('No SMTP_HOST (ALLOW_NO_MAIL): email messages stay in the outbox unsent');
    }
    if (this.sms instanceof NoSmsGateway && usesLocalSms(this.config)) {
      const store = new LocalSmsStore(smsDirOf(this.config));
      this.sms = store;
      this.logger.log(`No AFROMESSAGE_TOKEN: SMS are kept in ${store.dir} (GET /api/admin/sms)`);
    }
    this.service.onEnqueued = () => this.kick();
    this.timer = setInterval(() => void this.tick(), this.config.notifications.workerIntervalMs);
    this.timer.unref();
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.kickTimer) clearTimeout(this.kickTimer);
    await this.running?.catch(() => undefined);
    this.email?.close?.();
    await this.localMail?.close();
  }

  /** Looks for due messages soon (after an enqueue: its transaction has usually committed by then). */
  kick(): void {
    if (this.stopped || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      void this.tick();
    }, 100);
    this.kickTimer.unref();
  }

  private tick(): Promise<void> {
    if (this.running || this.stopped) return this.running ?? Promise.resolve();
    const run = this.drain()
      .then(() => undefined)
      .catch((error: Error) => this.logger.warn(`outbox run failed: ${error.message}`))
      .finally(() => (this.running = undefined));
    this.running = run;
    return run;
  }

  /** Delivers due messages until none is left (at most one batch per run). */
  async drain(): Promise<number> {
    let delivered = 0;
    for (let i = 0; i < BATCH && !this.stopped; i++) {
      const message = await this.claim();
      if (!message) break;
      await this.deliver(message);
      delivered++;
    }
    return delivered;
  }

  /** The channels this worker cannot send on (no transport configured). */
  private get unsendable(): NotificationChannel[] {
    const channels: NotificationChannel[] = [];
    if (!this.email) channels.push('email');
    if (this.sms instanceof NoSmsGateway) channels.push('sms');
    return channels;
  }

  /**
   * Takes one due message (pending and due, or sending with an expired lease) for this worker alone.
   * A channel this worker has no way to send on is never taken (email without SMTP_HOST under
   * ALLOW_NO_MAIL, SMS without AFROMESSAGE_TOKEN in production, or while the worker is off): its
   * messages stay pending, attempts untouched, for
   * an instance that has one, or this one once configured, instead of failing their attempts here.
   */
  private async claim(): Promise<(Notification & { _id: Types.ObjectId }) | null> {
    const now = new Date();
    return this.notifications
      .findOneAndUpdate(
        {
          $or: [
            { state: 'pending', nextAttemptAt: { $lte: now } },
            { state: 'sending', leaseUntil: { $lt: now } },
          ],
          ...(this.unsendable.length ? { channel: { $nin: this.unsendable } } : {}),
        },
        {
          $set: { state: 'sending', leaseUntil: new Date(now.getTime() + LEASE_MS), leaseOwner: this.owner },
          $inc: { attempts: 1 },
        },
        { sort: { nextAttemptAt: 1 }, new: true },
      )
      .lean<Notification & { _id: Types.ObjectId }>()
      .exec();
  }

  private async deliver(message: Notification & { _id: Types.ObjectId }): Promise<void> {
    let providerMessageId: string;
    try {
      providerMessageId = await this.send(message);
    } catch (error) {
      const reason = ((error as Error).message || String(error)).slice(0, 500);
      const giveUp = message.attempts >= this.config.notifications.maxAttempts;
      const wait = Math.min(
        MAX_BACKOFF_MS,
        this.config.notifications.backoffMs * 2 ** Math.max(0, message.attempts - 1),
      );
      await this.notifications
        .updateOne(
          { _id: message._id, state: 'sending', leaseOwner: this.owner },
          {
            $set: {
              state: giveUp ? 'failed' : 'pending',
              lastError: reason,
              nextAttemptAt: new Date(Date.now() + wait),
            },
            $unset: { leaseUntil: 1, leaseOwner: 1 },
          },
        )
        .exec();
      this.logger.warn(
        `${message.template} to ${message.channel} failed (attempt ${message.attempts}): ${reason}${giveUp ? '; giving up' : ''}`,
      );
      return;
    }
    await this.notifications
      .updateOne(
        { _id: message._id, state: 'sending', leaseOwner: this.owner },
        {
          $set: {
            state: 'sent',
            sentAt: new Date(),
            providerMessageId,
            // a password reset's link or code is not kept once it has gone out
            ...(message.sensitive ? { text: '[removed after delivery]', html: '' } : {}),
          },
          $unset: { leaseUntil: 1, leaseOwner: 1 }, // lastError stays: staff see that it took a retry
        },
      )
      .exec();
  }

  private async send(message: Notification & { _id: Types.ObjectId }): Promise<string> {
    if (message.channel === 'sms') return (await this.sms.send(message.to, message.text)).id;
    if (!this.email) throw new Error('No email transport configured (SMTP_HOST)');
    const domain = /@([^>\s]+)/.exec(this.config.mail.from)?.[1] ?? 'localhost';
    const result = await this.email.send({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html || undefined,
      messageId: `<${String(message._id)}.${message.eventKey.replace(/[^A-Za-z0-9.-]/g, '-')}@${domain}>`,
    });
    return result.id;
  }
}
