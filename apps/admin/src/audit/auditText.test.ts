import { describe, expect, it } from 'vitest';
import { translator } from '../testTranslate';
import { auditAction, auditActor, auditValue } from './auditText';

const en = translator('en');
const am = translator('am');

describe('audit entries in words', () => {
  it('name the admin who made a change, with the email, else what made it without anyone signed in', () => {
    const base = { action: 'order.status' };
    expect(auditActor({ ...base, actor: 'a1', actorName: 'Hanna', actorEmail: 'h@beauty.et' }, en)).toBe(
      'Hanna (h@beauty.et)',
    );
    expect(auditActor({ ...base, actor: 'a1', actorEmail: 'h@beauty.et' }, en)).toBe('h@beauty.et');
    expect(auditActor({ action: 'order.paymentStatus', source: 'webhook' }, en)).toBe('Chapa webhook');
    expect(auditActor({ action: 'order.paymentStatus', source: 'reverify' }, en)).toBe('Payment re-check');
    expect(auditActor({ action: 'order.paymentStatus', source: 'reverify' }, am)).toBe('የክፍያ ድጋሚ ማረጋገጫ');
    // entries from before sources were recorded
    expect(auditActor({ action: 'order.paymentStatus' }, en)).toBe('Chapa webhook');
    expect(auditActor({ action: 'settings.update' }, en)).toBe('System');
  });

  it('word the actions and their values in both languages, never raw keys', () => {
    const paid = { action: 'order.paymentStatus', from: 'paid', to: 'refund_pending' };
    expect(auditAction(paid, en)).toBe('Payment status changed');
    expect(auditAction(paid, am)).toBe('የክፍያ ሁኔታ ተቀይሯል');
    expect(auditValue(paid, paid.to, en)).toBe('Refund pending');
    expect(auditValue({ action: 'order.status' }, 'cancelled', am)).not.toBe('cancelled');
    expect(auditValue({ action: 'user.role' }, 'admin', en)).toBe('Admin');
    expect(auditValue({ action: 'user.active' }, false, en)).toBe('No');
    expect(auditValue({ action: 'product.price' }, undefined, en)).toBe('—');
    for (const action of [
      'order.status',
      'product.stock',
      'product.active',
      'user.delete',
      'settings.update',
    ]) {
      expect(auditAction({ action }, am)).toMatch(/[\u1200-\u137F]/);
    }
    // a payment collected on delivery (its from/to name the fields that changed)
    const collected = {
      action: 'order.payment_collected',
      from: { paymentStatus: 'unpaid' },
      to: { paymentStatus: 'paid', paymentReference: 'TB-7781' },
    };
    expect(auditAction(collected, en)).toBe('Payment collected on delivery');
    expect(auditAction(collected, am)).toMatch(/[\u1200-\u137F]/);
    expect(auditValue(collected, collected.from, en)).toBe('Payment status: Unpaid');
    expect(auditValue(collected, collected.to, en)).toBe('Payment status: Paid, Payment reference: TB-7781');
    expect(auditValue(collected, collected.to, am)).toBe('የክፍያ ሁኔታ: የተከፈለ, የክፍያ ማጣቀሻ: TB-7781');
    // an action the back office does not know yet shows as it is
    expect(auditAction({ action: 'coupon.create' }, en)).toBe('coupon.create');
  });

  it('word the fields of a created product (no field name in English on an Amharic screen)', () => {
    const created = { action: 'product.create', to: { price: 890, stock: 12 } };
    expect(auditValue(created, created.to, en)).toBe('Price (ETB): 890, Stock: 12');
    expect(auditValue(created, created.to, am)).toBe('ዋጋ (ብር): 890, ክምችት: 12');
  });
});
