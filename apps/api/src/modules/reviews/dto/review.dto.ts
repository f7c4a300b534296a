import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export const MAX_RECENT_REVIEWS = 20;
export const DEFAULT_RECENT_REVIEWS = 6;

/** A new review: rating 1-5 and a comment (sent as `comment` or, as some clients do, `text`). */
export class CreateReviewDto {
  @ApiProperty({ minimum: 1, maximum: 5, example: 5 })
  @IsInt({ message: 'rating must be a whole number from 1 to 5' })
  @Min(1)
  @Max(5)
  rating!: number;

  @ApiPropertyOptional({ example: 'My skin loves it', description: 'Required unless sent as text' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comment?: string;

  @ApiPropertyOptional({ description: 'Alias of comment' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  text?: string;

  @ApiPropertyOptional({ example: 'Great for the dry season' })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  title?: string;
}

/** An edit: any of rating, comment (or text) and title. */
export class UpdateReviewDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 5 })
  @IsOptional()
  @IsInt({ message: 'rating must be a whole number from 1 to 5' })
  @Min(1)
  @Max(5)
  rating?: number;

  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) @MaxLength(2000) comment?: string;
  @ApiPropertyOptional({ description: 'Alias of comment' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  text?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(120) title?: string;
}

export class ProductReviewsQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  page: number = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;
}

export class RecentReviewsQuery {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_RECENT_REVIEWS,
    default: DEFAULT_RECENT_REVIEWS,
    description: 'Larger values are capped',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit: number = DEFAULT_RECENT_REVIEWS;
}

export class ReviewUserDto {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'Hanna Tesfaye' }) name!: string;
}

export class ReviewProductDto {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'Moringa Glow Serum' }) name!: string;
  @ApiPropertyOptional() nameAm?: string;
  @ApiPropertyOptional() image?: string;
}

export class ReviewDto {
  @ApiProperty() _id!: string;
  @ApiProperty({ type: ReviewUserDto }) user!: ReviewUserDto;
  @ApiProperty({ type: ReviewProductDto }) product!: ReviewProductDto;
  @ApiProperty({ minimum: 1, maximum: 5 }) rating!: number;
  @ApiPropertyOptional() title?: string;
  @ApiProperty() comment!: string;
  @ApiProperty({ description: 'Mirror of comment' }) text!: string;
  @ApiProperty({ description: 'The author has a delivered order with this product' }) verified!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
}

export class ProductReviewsResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [ReviewDto] }) reviews!: ReviewDto[];
  @ApiProperty({ example: 4.3, description: 'Average rating, one decimal' }) rating!: number;
  @ApiProperty({ example: 12 }) reviewCount!: number;
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 1 }) totalPages!: number;
}

export class RecentReviewsResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [ReviewDto] }) reviews!: ReviewDto[];
}

export class ReviewResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: ReviewDto }) review!: ReviewDto;
  @ApiProperty({ example: 4.3 }) rating!: number;
  @ApiProperty({ example: 12 }) reviewCount!: number;
  @ApiPropertyOptional({ example: 'Review added' }) message?: string;
}

export class ReviewDeletedResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: 'Review deleted' }) message!: string;
  @ApiProperty({ example: 4.3 }) rating!: number;
  @ApiProperty({ example: 11 }) reviewCount!: number;
}
