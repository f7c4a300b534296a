import { Body, Controller, Delete, Get, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { JwtAuthGuard, Roles } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import {
  CreateReviewDto,
  ProductReviewsQuery,
  ProductReviewsResponseDto,
  RecentReviewsQuery,
  RecentReviewsResponseDto,
  ReviewDeletedResponseDto,
  ReviewResponseDto,
  UpdateReviewDto,
} from './dto/review.dto';
import { ReviewsService } from './reviews.service';

@ApiTags('reviews')
@Controller('reviews')
export class ReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get('recent')
  @ApiOperation({ summary: 'The newest reviews (home page testimonials); limit defaults to 6, capped at 20' })
  @ApiOkResponse({ type: RecentReviewsResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  async recent(@Query() query: RecentReviewsQuery) {
    return { success: true, reviews: await this.reviews.recent(query.limit) };
  }

  @Get('product/:id')
  @ApiOperation({ summary: "A product's reviews, newest first, with its rating and review count" })
  @ApiOkResponse({ type: ProductReviewsResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'Invalid page or limit' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Product not found' })
  async listForProduct(@Param('id') id: string, @Query() query: ProductReviewsQuery) {
    return { success: true, ...(await this.reviews.listForProduct(id, query)) };
  }

  @Post('product/:id')
  @UseGuards(JwtAuthGuard)
  @Roles('customer')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Review a product (customers; one review per product)' })
  @ApiCreatedResponse({ type: ReviewResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'rating 1-5 and comment required' })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  @ApiForbiddenResponse({ type: ErrorDto, description: 'Only customers write reviews' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Product not found' })
  @ApiConflictResponse({ type: ErrorDto, description: 'You have already reviewed this product' })
  async create(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() dto: CreateReviewDto) {
    return { success: true, ...(await this.reviews.create(user, id, dto)), message: 'Review added' };
  }

  @Patch(':id')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Edit a review (its author or an admin)' })
  @ApiOkResponse({ type: ReviewResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  @ApiForbiddenResponse({ type: ErrorDto, description: 'You can only change your own reviews' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Review not found' })
  async update(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() dto: UpdateReviewDto) {
    return { success: true, ...(await this.reviews.update(user, id, dto)), message: 'Review updated' };
  }

  @Delete(':id')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Delete a review (its author or an admin)' })
  @ApiOkResponse({ type: ReviewDeletedResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  @ApiForbiddenResponse({ type: ErrorDto, description: 'You can only change your own reviews' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Review not found' })
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return { success: true, message: 'Review deleted', ...(await this.reviews.remove(user, id)) };
  }
}
