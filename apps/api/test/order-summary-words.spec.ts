import { orderSummary, type OrderLike } from '../src/modules/notifications/templates';

// The order summary of every message uses the storefront's words (docs/decisions/0079-prices-account-phone.md):
// 'VAT', never 'Tax'; free shipping is 'Free', never 'ETB 0.00'; VAT-inclusive prices say the VAT is included.
const order = (over: Partial<OrderLike> = {}): OrderLike => ({
  _id: '65f0c0ffee0000000000abcd',
  orderNumber: 'AN-10042',
  orderItems: [{ name: 'Shea butter', nameAm: 'የሺአ ቅቤ', quantity: 2, priceAtPurchaseSantim: 435_000 }],
  shippingAddress: { street: 'Bole Rd', city: 'Addis Ababa', state: 'Addis Ababa', country: 'Ethiopia' },
  subtotalSantim: 870_000,
  shippingCostSantim: 0,
  taxSantim: 130_500,
  totalAmountSantim: 1_000_500,
  status: 'pending',
  paymentStatus: 'unpaid',
  ...over,
});

const text = (o: OrderLike, lang: 'en' | 'am') => JSON.stringify(orderSummary(o, lang));

describe('order summary words', () => {
  it('says VAT and Free in English, never Tax or ETB 0.00', () => {
    const en = text(order(), 'en');
    expect(en).toContain('VAT 15%');
    expect(en).not.toMatch(/Tax/);
    expect(en).toContain('Delivery: Free');
    expect(en).not.toMatch(/ETB\s*0\.00/);
  });

  it('says the VAT is included when the order was placed with VAT-inclusive prices', () => {
    expect(text(order({ pricesIncludeTax: true }), 'en')).toContain('(included)');
    expect(text(order(), 'en')).not.toContain('(included)');
  });

  it('names a shipping cost when there is one', () => {
    expect(text(order({ shippingCostSantim: 15_000 }), 'en')).toMatch(/Delivery: ETB\s?150\.00/);
  });

  it('uses the same words in Amharic', () => {
    const am = text(order({ pricesIncludeTax: true }), 'am');
    expect(am).toContain('ተ.እ.ታ 15%');
    expect(am).toContain('ነጻ');
    expect(am).not.toContain('ታክስ');
  });
});
