import { Controller, Delete, Get, Param, Query, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import {
  ApiReactAdminList,
  filterBoolean,
  filterEnum,
  filterIds,
  filterText,
  readListQuery,
  ReactAdminListQuery,
  sendList,
  type FilterValue,
  type ListSpec,
} from '../../common/react-admin-list';
import { ReviewsService, type AdminReviewFilter } from '../reviews/reviews.service';
import { ReviewRecordDto } from './dto/admin.dto';

/** The reviews list: filters q (title, comment), product, user, rating, verified, id. */
const LIST: ListSpec = {
  sortFields: { createdAt: 'createdAt', rating: 'rating', verified: 'verified' },
  filters: ['q', 'product', 'user', 'rating', 'verified'],
  defaultSort: ['createdAt', 'DESC'],
};

function reviewFilter(filter: Record<string, FilterValue>): AdminReviewFilter {
  return {
    q: filterText(filter, 'q'),
    products: filterIds(filter, 'product'),
    users: filterIds(filter, 'user'),
    ratings: filterEnum(filter, 'rating', ['1', '2', '3', '4', '5'])?.map(Number),
    verified: filterBoolean(filter, 'verified'),
  };
}

@ApiTags('admin')
@Controller('admin/reviews')
@AdminOnly()
export class AdminReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Reviews (react-admin list; filter q over title and comment, product, user, rating, verified, id)',
  })
  @ApiReactAdminList('reviews', ReviewRecordDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    return sendList(
      res,
      'reviews',
      await this.reviews.listForAdmin(readListQuery(query, LIST, reviewFilter)),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One review' })
  @ApiOkResponse({ type: ReviewRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.reviews.anyReview(id);
  }

  @Delete(':id')
  @ApiOperation({
    summary: "Delete a review; the product's rating and review count follow (answers the deleted record)",
  })
  @ApiOkResponse({ type: ReviewRecordDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  remove(@Param('id') id: string, @CurrentUser() actor: AuthUser) {
    return this.reviews.removeForAdmin(actor, id);
  }
}
