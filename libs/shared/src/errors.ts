/**
 * Every stable error and notice code the API answers (`code`, with `params` for the values a text
 * needs). English and Amharic texts live in libs/i18n under `errors.<CODE>` (a test checks both);
 * the English `message` of an answer stays for third parties. Add a code here before throwing it.
 */
export const ERROR_CODES = [
  // generic, by kind of failure
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNPROCESSABLE',
  'SERVICE_UNAVAILABLE',
  'TOO_MANY_REQUESTS',
  'INTERNAL_ERROR',
  'DATABASE_UNAVAILABLE',
  'DUPLICATE_KEY',
  // request shape
  'MALFORMED_JSON',
  'INVALID_BODY',
  'BODY_TOO_DEEP',
  'INVALID_TEXT',
  'NULL_NOT_ALLOWED',
  'INVALID_AMOUNT',
  'UNSUPPORTED_MEDIA_TYPE',
  'ORIGIN_NOT_ALLOWED',
  'INVALID_LIST_PARAMETER',
  'REQUIRED',
  'NOTHING_TO_UPDATE',
  // accounts
  'AUTH_REQUIRED',
  'INVALID_TOKEN',
  'SESSION_ENDED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_DEACTIVATED',
  'ACCESS_DENIED',
  'ADMIN_SECRET_REQUIRED',
  'ADMIN_REGISTRATION_FAILED',
  'DUPLICATE_EMAIL',
  'WEAK_PASSWORD',
  'PASSWORDS_DO_NOT_MATCH',
  'CURRENT_PASSWORD_REQUIRED',
  'CURRENT_PASSWORD_INCORRECT',
  'INVALID_PHONE',
  'INVALID_REGION',
  'DELIVERY_COUNTRY',
  'USER_NOT_FOUND',
  'ADDRESS_NOT_FOUND',
  'ADDRESS_LIMIT',
  'OWN_ROLE',
  'OWN_ACCOUNT_DEACTIVATE',
  'OWN_ACCOUNT_DELETE',
  'LAST_ADMIN',
  'RECORD_CHANGED',
  // catalogue, cart, wishlist
  'PRODUCT_NOT_FOUND',
  'DUPLICATE_SKU',
  'COMPARE_AT_NOT_ABOVE_PRICE',
  'VARIANT_NOT_FOUND',
  'DUPLICATE_VARIANT',
  'INVALID_VARIANTS',
  'INVALID_COMPARE_AT_PRICE',
  'SUB_CATEGORY_NOT_IN_CATEGORY',
  'OUT_OF_STOCK',
  'INSUFFICIENT_STOCK',
  'UNAVAILABLE',
  'PRODUCT_NOT_IN_CART',
  'PRODUCT_NOT_IN_WISHLIST',
  'CART_CHANGED',
  'NOTICE_UNAVAILABLE_REMOVED',
  'NOTICE_OUT_OF_STOCK_REMOVED',
  'NOTICE_QUANTITY_REDUCED',
  'NOTICE_SALE_ENDED',
  'CART_MERGE_CAPPED',
  'CART_ID_REQUIRED',
  // orders and payments
  'ORDER_NOT_FOUND',
  'EMPTY_CART',
  'SHOP_BUSY',
  'INVALID_STATUS_TRANSITION',
  'CANNOT_CANCEL',
  'ORDER_CHANGED',
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'ORDER_CANCELLED_UNPAYABLE',
  'ORDER_ALREADY_PAID',
  'ORDER_NOT_PAYABLE',
  'PAYMENT_NOT_FOUND',
  'INVALID_WEBHOOK_SIGNATURE',
  'PAYMENT_VERIFICATION_ERROR',
  'PAYMENT_PROVIDER_UNAVAILABLE',
  'PAYMENT_PROVIDER_REFUSED',
  'PAYMENT_SUCCESS',
  'PAYMENT_FAILED',
  'PAYMENT_VERIFICATION_FAILED',
  'PAYMENT_PENDING',
  'PAYMENT_REFUND_PENDING',
  'COD_UNAVAILABLE',
  'PAY_ON_DELIVERY_ORDER',
  'PAYMENT_NOT_COLLECTABLE',
  'ORDER_NOT_PAID',
  'NOT_REFUNDABLE',
  'REFUND_EXCEEDS_PAID',
  'REFUND_METHOD_UNAVAILABLE',
  'TOO_MANY_ATTEMPTS',
  // coupon codes (docs/decisions/0096-coupon-codes.md)
  'COUPON_NOT_FOUND',
  'COUPON_EXPIRED',
  'COUPON_MIN_SUBTOTAL',
  'COUPON_EXHAUSTED',
  'COUPON_ALREADY_USED',
  'COUPON_CODE_TAKEN',
  'INVALID_COUPON',
  // scheduled sales (docs/decisions/0095)
  'PROMOTION_NOT_FOUND',
  'INVALID_PROMOTION',
  // reviews, contacts, uploads, audit, shop
  'REVIEW_NOT_FOUND',
  'DUPLICATE_REVIEW',
  'OWN_REVIEWS_ONLY',
  'CONTACT_NOT_FOUND',
  'CONTACT_REPLIES_LIMIT',
  'INVALID_REPORT_PERIOD',
  'IMAGE_NOT_FOUND',
  'FILE_TOO_LARGE',
  'TOO_MANY_FILES',
  'ONLY_IMAGES',
  'NO_IMAGES',
  'INVALID_UPLOAD',
  'MALFORMED_MULTIPART',
  'AUDIT_ENTRY_NOT_FOUND',
  'NOTIFICATION_NOT_FOUND',
  'NOTIFICATION_RESEND_SENSITIVE',
  'NOTIFICATION_NOT_RESENDABLE',
  'MAIL_NOT_FOUND',
  'UNEXPECTED_FILE_FIELD',
  'RESET_INVALID',
  'UNSUBSCRIBE_INVALID',
  'PHONE_REQUIRED',
  'PHONE_VERIFIED',
  'PHONE_CODE_LIMIT',
  'PHONE_CODE_INVALID',
  'TOO_MANY_CODES',
  'OTP_INVALID',
  'SMS_NOT_FOUND',
  'MAINTENANCE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Values a coded text needs (a product name, a count...). */
export type ErrorParams = Record<string, string | number>;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Only what a coded text may show: short texts and finite numbers (a name, a count, a status), at most 8. */
export function codeParams(raw: unknown): ErrorParams {
  const out: ErrorParams = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>).slice(0, 8)) {
    if (typeof value === 'string' && value.trim()) out[name] = value.trim().slice(0, 120);
    else if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
  }
  return out;
}
