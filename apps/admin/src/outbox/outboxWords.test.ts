import { describe, expect, it } from 'vitest';
import adminAm from '@shop/i18n/src/admin.am.json';
import mailEn from '@shop/i18n/src/mail.en.json';
import { translator } from '../testTranslate';
import { channelLabel, templateLabel } from './outboxWords';

describe('the outbox in words', () => {
  it('names every message the API sends in both languages (no template name shown)', () => {
    const templates = Object.entries(mailEn.mail)
      .filter(([, v]) => typeof v === 'object' && v && 'subject' in v)
      .map(([k]) => k);
    expect(templates).toContain('adminNewOrder');
    const am = translator('am');
    const en = translator('en');
    for (const name of templates) {
      expect(templateLabel(name, am), name).toMatch(/[\u1200-\u137F]/);
      expect(templateLabel(name, en), name).not.toBe(name);
    }
    expect(templateLabel('paymentFailed', am)).toBe(adminAm.outbox.templates.paymentFailed);
  });

  it('says a channel in words and an unknown template as a message', () => {
    const am = translator('am');
    expect(channelLabel('email', am)).toBe('ኢሜይል');
    expect(channelLabel('sms', am)).toBe('አጭር መልዕክት');
    expect(templateLabel('somethingNew', am)).toBe('መልዕክት');
  });
});
