import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { EMAIL_INDEX, User } from './schemas/user.schema';

/**
 * Makes the users' email index unique only where an email is present (accounts made by phone
 * sign-in have none: docs/decisions/0064-phone-sign-in.md). A database made before has `email_1`,
 * unique over every account, where a second account without email would collide: it is dropped and
 * the new index made, once; several instances starting together do the same harmlessly.
 */
@Injectable()
export class UserIndexes implements OnModuleInit {
  private readonly logger = new Logger('UserIndexes');

  constructor(@InjectModel(User.name) private readonly users: Model<User>) {}

  async onModuleInit(): Promise<void> {
    const collection = this.users.collection;
    const indexes: { name?: string; key?: Record<string, unknown> }[] = await collection
      .indexes()
      .catch(() => []); // no collection yet: nothing to replace
    if (indexes.some((i) => i.name === EMAIL_INDEX.options.name)) return;
    for (const old of indexes) {
      const key = Object.keys(old.key ?? {});
      if (old.name && key.length === 1 && key[0] === 'email') {
        await collection.dropIndex(old.name).catch(() => undefined); // another instance dropped it
        this.logger.log(`dropped ${old.name}: emails are now unique only when present`);
      }
    }
    await collection.createIndex(EMAIL_INDEX.key, EMAIL_INDEX.options);
  }
}
