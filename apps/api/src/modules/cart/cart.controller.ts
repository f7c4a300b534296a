import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { couponHolderOf } from '../coupons/coupons.service';
import { ApplyCouponDto } from '../coupons/dto/coupon.dto';
import {
  CART_ID_COOKIE,
  cartOwnerOf,
  CartOwnerGuard,
  guestCartIdFrom,
  type CartRequest,
} from './cart-owner.guard';
import { CartService } from './cart.service';
import { CartViewService, type CartView } from './cart-view.service';
import { GuestCartsService } from './guest-carts.service';
import { AddToCartDto, CartDto, MergeCartDto, UpdateCartItemDto } from './dto/cart.dto';
import { GUEST_CART_TTL_DAYS } from './schemas/cart.schema';

const GUEST_CART_DOC =
  `A visitor without an account has a guest cart: the first \`POST /cart/add\` without a token creates it ` +
  `and answers its id (\`cartId\`, 128 random bits as 32 hex characters) in the body, in the ` +
  `\`X-Cart-Id\` response header and in an httpOnly \`cartId\` cookie. Send it back as the \`X-Cart-Id\` ` +
  `header (or the cookie) on every cart call. A guest cart expires ${GUEST_CART_TTL_DAYS} days after its ` +
  `last change; an unknown or expired id reads as an empty cart and the next add starts a new one. ` +
  `With a token the account's cart is used and \`X-Cart-Id\` is ignored; \`POST /cart/merge\` moves a ` +
  `guest cart into it after sign-in or sign-up.`;

/** The guest cart id header, documented on every route that reads it. */
const CartIdHeader = () =>
  ApiHeader({
    name: 'X-Cart-Id',
    required: false,
    description: 'A guest cart id (32 hex characters), for callers without a token',
  });

/** Which line of a product with variants a request without `variantId` means (docs/decisions/0098-product-variants.md). */
const VARIANT_LINE_DOC =
  'A product with variants has a line per variant: `?variantId=` names it. Without it: the line of the product ' +
  "without a variant, else the product's only line, else its default variant's line. A variantId not of the product: 404 VARIANT_NOT_FOUND.";

/** `?variantId=` once (a repeated or empty one is none). */
function variantOf(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * Every signed-in user has a cart (admins too: the back office's "Create Order" goes to checkout), and
 * so does a visitor: a guest cart held by an unguessable id (docs/decisions/0024-cart-and-guest-cart.md).
 */
@ApiTags('cart')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorDto, description: 'Invalid or expired token' })
@UseGuards(CartOwnerGuard)
@Controller('cart')
export class CartController {
  constructor(
    private readonly cart: CartService,
    private readonly views: CartViewService,
    private readonly guests: GuestCartsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Tells a guest its cart id (header and httpOnly cookie), so that a browser calling directly keeps it. */
  private answer(res: Response, view: CartView): CartView {
    if (view.cartId) {
      res.setHeader('X-Cart-Id', view.cartId);
      res.cookie(CART_ID_COOKIE, view.cartId, {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.config.nodeEnv === 'production',
        path: '/',
        maxAge: GUEST_CART_TTL_DAYS * 24 * 60 * 60 * 1000,
      });
    }
    return view;
  }

  @Get()
  @CartIdHeader()
  @ApiOperation({
    summary: 'The cart with current product data; drops withdrawn or sold-out lines with a notice',
    description: GUEST_CART_DOC,
  })
  @ApiOkResponse({ type: CartDto })
  async getCart(@Req() req: CartRequest) {
    const owner = cartOwnerOf(req);
    return owner ? this.views.view(owner) : this.views.emptyView();
  }

  @Post('add')
  @HttpCode(200)
  @CartIdHeader()
  @ApiOperation({
    summary: 'Add units of a product (default 1, at most 10 per add, never beyond the stock)',
    description: `Without a token and without a live \`X-Cart-Id\`, creates a guest cart and answers its \`cartId\`. ${GUEST_CART_DOC}`,
  })
  @ApiOkResponse({ type: CartDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'Invalid productId or quantity (1 to 10)' })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Product not found" (unknown or withdrawn)' })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'Not enough stock, e.g. "Only 2 left in stock for Shea Butter Cream"',
  })
  async add(@Req() req: CartRequest, @Body() dto: AddToCartDto, @Res({ passthrough: true }) res: Response) {
    let owner = cartOwnerOf(req);
    if (!owner || (typeof owner !== 'string' && !(await this.guests.guestCartExists(owner.guestId))))
      owner = { guestId: await this.guests.createGuestCart() };
    return this.answer(res, await this.cart.add(owner, dto.productId, dto.quantity, dto.variantId));
  }

  @Patch('update/:productId')
  @CartIdHeader()
  @ApiOperation({
    summary: "Set a line's quantity (1 to the stock)",
    description: VARIANT_LINE_DOC,
  })
  @ApiParam({ name: 'productId' })
  @ApiQuery({
    name: 'variantId',
    type: String,
    required: false,
    description: 'The line of this variant of the product',
  })
  @ApiOkResponse({ type: CartDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: '"Product not found" or "Product not in cart"' })
  @ApiConflictResponse({ type: ErrorDto, description: 'Quantity beyond the stock' })
  async update(
    @Req() req: CartRequest,
    @Param('productId') productId: string,
    @Body() dto: UpdateCartItemDto,
    @Query('variantId') variantId?: unknown,
  ) {
    const owner = cartOwnerOf(req);
    if (!owner) throw this.cart.notInCart(productId);
    return this.cart.update(owner, productId, dto.quantity, variantOf(variantId));
  }

  @Delete('remove/:productId')
  @CartIdHeader()
  @ApiOperation({ summary: 'Remove a line (idempotent)', description: VARIANT_LINE_DOC })
  @ApiParam({ name: 'productId' })
  @ApiQuery({
    name: 'variantId',
    type: String,
    required: false,
    description: 'The line of this variant of the product',
  })
  @ApiOkResponse({ type: CartDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Malformed product id: "Product not found"' })
  async remove(
    @Req() req: CartRequest,
    @Param('productId') productId: string,
    @Query('variantId') variantId?: unknown,
  ) {
    const owner = cartOwnerOf(req);
    if (!owner) {
      this.cart.checkProductId(productId);
      return this.views.emptyView();
    }
    return this.cart.remove(owner, productId, variantOf(variantId));
  }

  @Delete('clear')
  @CartIdHeader()
  @ApiOperation({ summary: 'Empty the cart' })
  @ApiOkResponse({ type: CartDto })
  async clear(@Req() req: CartRequest) {
    const owner = cartOwnerOf(req);
    return { ...(owner ? await this.cart.clear(owner) : this.views.emptyView()), message: 'Cart cleared' };
  }

  @Post('coupon')
  @HttpCode(200)
  @CartIdHeader()
  @ApiOperation({
    summary: 'Apply a coupon code to the cart (any case; one code per cart, a new one replaces it)',
    description:
      'Checked against the cart now (docs/decisions/0096-coupon-codes.md); the answer carries `coupon` and ' +
      '`discount`. The use is taken only when the order is placed, in its transaction.',
  })
  @ApiOkResponse({ type: CartDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'code missing' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'COUPON_NOT_FOUND: unknown or switched off' })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'COUPON_EXHAUSTED (used up), COUPON_ALREADY_USED (this customer used it up)',
  })
  @ApiUnprocessableEntityResponse({
    type: ErrorDto,
    description: 'COUPON_EXPIRED (not started or ended), COUPON_MIN_SUBTOTAL (params.minimum, ETB)',
  })
  async applyCoupon(
    @Req() req: CartRequest,
    @Body() dto: ApplyCouponDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    let owner = cartOwnerOf(req);
    if (!owner || (typeof owner !== 'string' && !(await this.guests.guestCartExists(owner.guestId))))
      owner = { guestId: await this.guests.createGuestCart() };
    const user = req.user;
    const holder = user
      ? couponHolderOf({ userId: user.id, email: user.email, phone: user.contact?.phone })
      : undefined;
    return this.answer(res, await this.cart.applyCoupon(owner, dto.code, holder));
  }

  @Delete('coupon')
  @CartIdHeader()
  @ApiOperation({ summary: 'Take the coupon code off the cart (idempotent)' })
  @ApiOkResponse({ type: CartDto })
  async removeCoupon(@Req() req: CartRequest) {
    const owner = cartOwnerOf(req);
    return owner ? this.cart.removeCoupon(owner) : this.views.emptyView();
  }

  @Delete('clearAllFromCart')
  @CartIdHeader()
  @ApiOperation({ summary: 'Empty the cart (the name the payment success page calls)' })
  @ApiOkResponse({ type: CartDto })
  async clearAll(@Req() req: CartRequest) {
    return this.clear(req);
  }
}

/** Merging needs an account: it is the signed-in user's cart that receives the guest's lines. */
@ApiTags('cart')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorDto, description: 'No or invalid token' })
@UseGuards(JwtAuthGuard)
@Controller('cart')
export class CartMergeController {
  constructor(private readonly guests: GuestCartsService) {}

  @Post('merge')
  @HttpCode(200)
  @ApiHeader({ name: 'X-Cart-Id', required: false, description: 'The guest cart id, if not in the body' })
  @ApiOperation({
    summary: "Merge a guest cart into the signed-in user's cart (call after sign-in or sign-up)",
    description:
      'Quantities are added, each line capped by the stock (a `quantity_capped` notice, code ' +
      '`CART_MERGE_CAPPED`, names the product and the quantity kept); lines no longer on sale are ' +
      'dropped with a notice; the guest cart is deleted. An unknown or expired guest cart merges ' +
      'nothing and answers the account cart.',
  })
  @ApiOkResponse({ type: CartDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'cartId missing or not 32 hex characters' })
  async merge(
    @CurrentUser() user: AuthUser,
    @Body() dto: MergeCartDto,
    @Req() req: CartRequest,
    @Res({ passthrough: true }) res: Response,
  ) {
    const guestId = dto.cartId?.toLowerCase() ?? guestCartIdFrom(req);
    if (!guestId) throw this.guests.missingCartId();
    const view = await this.guests.mergeGuestCart(user.id, guestId);
    res.clearCookie(CART_ID_COOKIE, { path: '/' });
    return view;
  }
}
