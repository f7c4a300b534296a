import { normaliseEthiopianPhone } from '@shop/shared';
import { apiFor } from '../../session.server';
import { settle } from '../api.server';
import { serverFieldErrors, type FieldErrors } from '../forms';

/** The number a code is asked for: an Ethiopian mobile, normalised as the API stores it (+2519…/+2517…). */
export function validateOtpPhone(typed: string): { phone?: string; error: string } {
  if (!typed) return { error: 'checkout.phoneRequired' };
  const phone = normaliseEthiopianPhone(typed);
  return phone ? { phone, error: '' } : { error: 'checkout.phoneInvalid' };
}

/** The code as typed: six digits (spaces ignored, as an SMS app may paste '123 456'). */
export function validateOtpCode(value: unknown): { code?: string; error: string } {
  const code = String(value ?? '').replace(/\s+/g, '');
  if (!code) return { error: 'otp.codeRequired' };
  return /^\d{6}$/.test(code) ? { code, error: '' } : { error: 'otp.codeFormat' };
}

type Refusal = {
  ok: false;
  status: number;
  code?: string;
  fieldErrors: FieldErrors;
  formError: string | null;
};

/** The shopper's address for the API's limits per client, when a proxy in front of the storefront gave it. */
function forwardedFor(request: Request): Record<string, string> {
  const forwarded = request.headers.get('X-Forwarded-For');
  return forwarded ? { 'X-Forwarded-For': forwarded } : {};
}

function refusal(
  result: { status: number; code?: string; key?: string; errors?: Parameters<typeof serverFieldErrors>[0] },
  fallback: string,
): Refusal {
  // a field error without its own code (the API's OTP_INVALID on the field `code`) takes the answer's code
  const specific = result.key && result.key !== 'errors.VALIDATION_FAILED' ? result.key : undefined;
  const fieldErrors = Object.fromEntries(
    Object.entries(serverFieldErrors(result.errors)).map(([field, key]) => [
      field,
      specific && key === 'errors.VALIDATION_FAILED' ? specific : key,
    ]),
  );
  return {
    ok: false,
    status: result.status,
    code: result.code,
    fieldErrors,
    // a field's own problem is shown at the field; the form says the rest by the API's code
    formError: Object.keys(fieldErrors).length ? null : (result.key ?? fallback),
  };
}

/** POST /api/auth/otp/request: 202 whether or not the number has an account; TOO_MANY_CODES after 3 an hour. */
export async function requestCode(request: Request, phone: string): Promise<{ ok: true } | Refusal> {
  const result = await settle(
    apiFor(request).POST('/api/auth/otp/request', { body: { phone }, headers: forwardedFor(request) }),
  );
  return result.ok ? { ok: true } : refusal(result, 'otp.sendFailed');
}

/**
 * POST /api/auth/otp/verify: the session token of the number's account (created when new), or the
 * refusal (OTP_INVALID for a wrong, expired or used code). `needsName`: the account has no name yet.
 */
export async function verifyCode(
  request: Request,
  phone: string,
  code: string,
): Promise<{ ok: true; token: string; role: string; needsName: boolean } | Refusal> {
  const result = await settle(
    apiFor(request).POST('/api/auth/otp/verify', { body: { phone, code }, headers: forwardedFor(request) }),
  );
  if (!result.ok) return refusal(result, 'otp.verifyFailed');
  const { token, user, created } = result.data;
  if (!token) return { ok: false, status: 502, fieldErrors: {}, formError: 'otp.verifyFailed' };
  return { ok: true, token, role: user.role, needsName: created === true || !user.name?.trim() };
}
