import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsService } from './accounts.service';
import { AddressesService } from './addresses.service';
import { User, UserSchema } from './schemas/user.schema';
import { SessionsService } from './sessions.service';
import { UserIndexes } from './user-indexes';
import { UsersController } from './users.controller';

/**
 * Accounts (profile, the users screen, lookups for other modules), addresses (one's own address book)
 * and sessions (the token check, sign-out, the password). Other modules get the services, never the model.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: User.name, schema: UserSchema }])],
  controllers: [UsersController],
  providers: [AccountsService, AddressesService, SessionsService, UserIndexes],
  exports: [AccountsService, SessionsService],
})
export class UsersModule {}
