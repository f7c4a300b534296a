import request from 'supertest';
import type { TestApp } from './test-app';
import { auth } from './accounts';

export interface Mail {
  id: string;
  messageId?: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Every mail the local SMTP server has kept, as the back office lists it. */
export async function mails(t: TestApp, adminToken: string, to?: string): Promise<Mail[]> {
  const filter = to ? `&filter=${encodeURIComponent(JSON.stringify({ q: to }))}` : '';
  const res = await request(t.http)
    .get(`/api/admin/mails?range=[0,99]${filter}`)
    .set(auth(adminToken))
    .expect(200);
  return res.body as Mail[];
}

/** Waits until the recipient has at least `count` mails matching `subject`; answers them. */
export async function waitForMails(
  t: TestApp,
  adminToken: string,
  to: string,
  subject: RegExp,
  count = 1,
  timeoutMs = 10_000,
): Promise<Mail[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mails(t, adminToken, to)).filter((m) => subject.test(m.subject));
    if (found.length >= count) return found;
    if (Date.now() > end)
      throw new Error(
        `no ${count} mail(s) "${subject}" to ${to}; got ${JSON.stringify(await mails(t, adminToken, to))}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
