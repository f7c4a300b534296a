import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdminCouponsController } from './admin-coupons.controller';
import { CouponsService } from './coupons.service';
import { Coupon, CouponSchema, CouponUse, CouponUseSchema } from './schemas/coupon.schema';

/** Coupon codes (docs/decisions/0096-coupon-codes.md): staff's routes; carts and orders use the service. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Coupon.name, schema: CouponSchema },
      { name: CouponUse.name, schema: CouponUseSchema },
    ]),
  ],
  controllers: [AdminCouponsController],
  providers: [CouponsService],
  exports: [CouponsService],
})
export class CouponsModule {}
