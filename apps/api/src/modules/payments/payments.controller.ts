import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
  type RawBodyRequest,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ErrorDto } from '../../common/error.dto';
import {
  CompleteTestPaymentDto,
  InitializePaymentDto,
  InitializePaymentResponseDto,
  PaymentCallbackResponseDto,
  TestPaymentCompletedDto,
  VerifyPaymentResponseDto,
  WebhookAckDto,
} from './dto/payment.dto';
import { CurrentViewer, OrderAccessGuard, type OrderViewer } from '../orders/orders.module';
import { PaymentWebhooks } from './payment-webhooks.service';
import { PaymentsService } from './payments.service';
import { testCheckoutPage, testResultPage } from './test-checkout.page';

/** The X-Order-Token header of a guest's order, documented on the routes that take it. */
const OrderTokenHeader = () =>
  ApiHeader({
    name: 'X-Order-Token',
    required: false,
    description: "A guest's order token (guestAccessToken of the placement), instead of a Bearer token",
  });

@ApiTags('payments')
@Controller('payments')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly webhooks: PaymentWebhooks,
  ) {}

  @Post('initialize')
  @UseGuards(OrderAccessGuard)
  @ApiBearerAuth()
  @OrderTokenHeader()
  @ApiOperation({
    summary: "Start paying one of your orders (or a guest's, with its X-Order-Token)",
    description:
      'Makes a unique tx_ref tied to the order and initialises the transaction with the provider (Chapa, or the ' +
      'offline test provider when no keys are configured) for the amount and currency of the stored order. The ' +
      'browser follows checkoutUrl or posts hostedForm.fields to hostedForm.action.',
  })
  @ApiCreatedResponse({ type: InitializePaymentResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Order not found (or not yours)' })
  @ApiConflictResponse({
    type: ErrorDto,
    description: 'The order is cancelled or already paid, or paid on delivery (PAY_ON_DELIVERY_ORDER)',
  })
  @ApiResponse({ status: 502, type: ErrorDto, description: 'The provider refused the transaction' })
  @ApiServiceUnavailableResponse({ type: ErrorDto, description: 'The provider cannot be reached' })
  initialize(@CurrentViewer() viewer: OrderViewer, @Body() input: InitializePaymentDto) {
    return this.payments.initialize(viewer, input.orderId);
  }

  @Get('verify/:txRef')
  @UseGuards(OrderAccessGuard)
  @ApiBearerAuth()
  @OrderTokenHeader()
  @ApiOperation({
    summary:
      "Verify a transaction with the provider (owner, admin, or a guest with its order's X-Order-Token)",
    description:
      'The order becomes paid only when the provider reports success with the amount and currency of the stored ' +
      'order. Idempotent: a settled transaction is answered from the record.',
  })
  @ApiOkResponse({ type: VerifyPaymentResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Payment reference not found' })
  @ApiServiceUnavailableResponse({
    type: ErrorDto,
    description: 'Payment verification error (provider unreachable)',
  })
  verify(@CurrentViewer() viewer: OrderViewer, @Param('txRef') txRef: string) {
    return this.payments.verify(viewer, txRef);
  }

  @Get('callback')
  @ApiOperation({
    summary: "Chapa's callback_url (public)",
    description:
      'Chapa calls it after a payment; it only triggers a verification with Chapa and reveals no order details.',
  })
  @ApiQuery({
    name: 'trx_ref',
    required: false,
    description: 'The transaction reference (as Chapa sends it)',
  })
  @ApiQuery({ name: 'tx_ref', required: false, description: 'The transaction reference (alternative name)' })
  @ApiOkResponse({ type: PaymentCallbackResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Payment reference not found' })
  @ApiServiceUnavailableResponse({ type: ErrorDto, description: 'Payment verification error' })
  callback(@Query() query: Record<string, unknown>) {
    const ref =
      typeof query.trx_ref === 'string'
        ? query.trx_ref
        : typeof query.tx_ref === 'string'
          ? query.tx_ref
          : undefined;
    return this.payments.handleCallback(ref);
  }

  @Post('webhook')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Chapa webhook (public, signed)',
    description:
      'The HMAC-SHA256 (hex) of the raw request body keyed with CHAPA_WEBHOOK_SECRET must be sent in ' +
      'x-chapa-signature or chapa-signature. The transaction is then verified with Chapa before the order changes; ' +
      'repeat deliveries change nothing.',
  })
  @ApiHeader({
    name: 'x-chapa-signature',
    required: false,
    description: 'HMAC-SHA256 hex of the raw body with the webhook secret',
  })
  @ApiHeader({
    name: 'chapa-signature',
    required: false,
    description: 'Same signature under the other header name Chapa uses',
  })
  @ApiBody({
    schema: {
      type: 'object',
      properties: { tx_ref: { type: 'string' }, status: { type: 'string' } },
      additionalProperties: true,
    },
  })
  @ApiOkResponse({ type: WebhookAckDto })
  @ApiUnauthorizedResponse({ type: ErrorDto, description: 'Missing or wrong signature' })
  webhook(@Req() req: RawBodyRequest<Request>) {
    return this.webhooks.handleWebhook(req.rawBody, req.headers);
  }

  @Get('test/:txRef')
  @ApiProduces('text/html')
  @ApiOperation({
    summary: "The offline test provider's checkout page (HTML; only when no Chapa keys are configured)",
  })
  @ApiOkResponse({ description: 'An HTML page to simulate a successful or failed payment' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Payment reference not found' })
  async testCheckout(@Param('txRef') txRef: string, @Res() res: Response) {
    const info = await this.payments.describeTestPayment(txRef);
    res.status(200).type('html').setHeader('Cache-Control', 'no-store').send(testCheckoutPage(info));
  }

  @Post('test/:txRef/complete')
  @HttpCode(200)
  @UseGuards(OrderAccessGuard)
  @ApiBearerAuth()
  @OrderTokenHeader()
  @ApiOperation({
    summary: 'Complete or fail a test payment (owner; test provider only)',
    description:
      'JSON callers get the verification answer; a form post from the test page gets an HTML page that returns to the shop.',
  })
  @ApiOkResponse({ type: TestPaymentCompletedDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Payment reference not found' })
  async completeTest(
    @CurrentViewer() viewer: OrderViewer,
    @Param('txRef') txRef: string,
    @Body() input: CompleteTestPaymentDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.payments.completeTestPayment(viewer, txRef, input.outcome);
    const returnUrl = this.payments.returnUrlFor(result.txRef);
    if (req.is('application/x-www-form-urlencoded')) {
      res.type('html').setHeader('Cache-Control', 'no-store');
      return testResultPage({ success: result.success, message: result.message, returnUrl });
    }
    return { ...result, returnUrl };
  }
}
