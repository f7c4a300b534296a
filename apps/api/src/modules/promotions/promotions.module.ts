import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { AdminPromotionsController } from './admin-promotions.controller';
import { PromotionsService } from './promotions.service';
import { Promotion, PromotionSchema } from './schemas/promotion.schema';

/** Scheduled sales (docs/decisions/0095): staff's routes; the products carry the sales for every answer. */
@Module({
  imports: [MongooseModule.forFeature([{ name: Promotion.name, schema: PromotionSchema }]), CatalogModule],
  controllers: [AdminPromotionsController],
  providers: [PromotionsService],
  exports: [PromotionsService],
})
export class PromotionsModule {}
