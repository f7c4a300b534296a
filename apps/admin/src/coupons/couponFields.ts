/** The fields of a coupon the API accepts (the record also carries id, uses and the dates' echo). */
const FIELDS = [
  'code',
  'kind',
  'value',
  'minSubtotal',
  'startsAt',
  'endsAt',
  'usageLimit',
  'perCustomerLimit',
  'active',
] as const;

/**
 * A coupon form's values as the API takes them: numbers as numbers, an emptied limit or date as
 * null (the API then removes it), free shipping without a value.
 */
export function couponPayload(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    if (!(f in data)) continue;
    const v = data[f];
    out[f] = v === '' || v === undefined ? null : v;
  }
  for (const f of ['value', 'minSubtotal', 'usageLimit', 'perCustomerLimit'] as const)
    if (out[f] !== null && out[f] !== undefined) out[f] = Number(out[f]);
  if (out.kind === 'freeShipping') delete out.value;
  if (out.minSubtotal === null) out.minSubtotal = 0;
  if (typeof out.code === 'string') out.code = out.code.trim().toUpperCase();
  return out;
}

/** How a coupon's value reads in the list: 10%, ETB 50, or free delivery (the caller's words). */
export function couponValueText(
  record: { kind?: string; value?: number },
  freeShipping: string,
  money: (amount: number) => string,
): string {
  if (record.kind === 'percent') return `${record.value ?? 0}%`;
  if (record.kind === 'fixed') return money(record.value ?? 0);
  return freeShipping;
}
