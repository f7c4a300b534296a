import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORDER_STATUSES, SETTINGS_CURRENCIES, SETTINGS_TIMEZONES } from '@shop/shared';
import { ORDER_NUMBER_DESCRIPTION, OrderUserDto } from '../../orders/dto/order.dto';

export class SalesDayDto {
  @ApiProperty({ example: '2026-11-23', description: 'Day in the shop timezone' }) _id!: string;
  @ApiProperty({ example: 1725, description: 'Paid sales that day' }) totalSales!: number;
  @ApiProperty({ example: 2 }) orders!: number;
}

class ProductDetailsDto {
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: 'The Amharic name, when the product has one' }) nameAm?: string;
  @ApiProperty({ example: 890 }) price!: number;
  @ApiPropertyOptional() image?: string;
}

export class TopProductDto {
  @ApiProperty({ description: 'Product id' }) _id!: string;
  @ApiProperty({ example: 12 }) totalQuantity!: number;
  @ApiProperty({ type: ProductDetailsDto }) productDetails!: ProductDetailsDto;
}

class CustomerDto {
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
}

export class RecentOrderDto {
  @ApiProperty() _id!: string;
  @ApiProperty() id!: string;
  @ApiPropertyOptional({ description: ORDER_NUMBER_DESCRIPTION, example: 'AN-10042' }) orderNumber?: string;
  @ApiProperty({
    type: OrderUserDto,
    description: 'The account (its name and email at order time if deleted)',
  })
  user!: OrderUserDto;
  @ApiProperty({ type: CustomerDto }) customer!: CustomerDto;
  @ApiProperty() totalAmount!: number;
  @ApiProperty({ enum: ORDER_STATUSES }) status!: string;
  @ApiProperty() paymentStatus!: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

export class ActivityDto {
  @ApiProperty() orderId!: string;
  @ApiPropertyOptional({ description: ORDER_NUMBER_DESCRIPTION, example: 'AN-10042' }) orderNumber?: string;
  @ApiProperty({
    enum: ORDER_STATUSES,
    description: 'Dot colour: delivered green, pending yellow, grey otherwise',
  })
  status!: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty() customerName!: string;
  @ApiProperty() totalAmount!: number;
}

export class LowStockItemDto {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: 'The Amharic name, when the product has one' }) nameAm?: string;
  @ApiProperty() stock!: number;
  @ApiProperty() price!: number;
  @ApiPropertyOptional() image?: string;
}

export class DashboardStatsDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty() totalOrders!: number;
  @ApiProperty({ description: 'Paid orders not cancelled or refunded, ETB two decimals' })
  totalRevenue!: number;
  @ApiProperty() itemsSold!: number;
  @ApiProperty() totalUsers!: number;
  @ApiProperty({ description: 'Products on sale (active)' }) totalProducts!: number;
  @ApiProperty({ type: [SalesDayDto], description: 'Last 7 days, oldest first, zero days included' })
  salesData!: SalesDayDto[];
  @ApiProperty({ type: [TopProductDto] }) topSellingProducts!: TopProductDto[];
  @ApiProperty({ type: [RecentOrderDto] }) recentOrders!: RecentOrderDto[];
  @ApiProperty({ type: [ActivityDto] }) recentActivity!: ActivityDto[];
  @ApiProperty({ type: [LowStockItemDto] }) lowStockItems!: LowStockItemDto[];
  @ApiProperty({
    type: [LowStockItemDto],
    description: 'Same list as lowStockItems, the name the specification clients read (docs/product.md §3)',
  })
  lowStockProducts!: LowStockItemDto[];
  @ApiProperty({ enum: SETTINGS_CURRENCIES }) currency!: string;
  @ApiProperty({ enum: SETTINGS_TIMEZONES }) timezone!: string;
}
