import { staffPage as signedInStaffPage } from './admin-support';
import { translate } from '@shop/i18n';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiJson } from './account-support';
import { ADMIN } from './shop-support';
import { launchChromium, startStack, type Stack } from './stack';

const am = (key: string) => translate('am', key);

/** A time in Ethiopian hours as the back office writes it in Amharic (docs/decisions/0081). */
const ETHIOPIAN_TIME = /(ከሌሊቱ|ከጠዋቱ|ከሰዓት በኋላ|ከምሽቱ) \d{1,2}:\d\d/;
/** The 12-hour Western clock the back office used before: AM/PM or the ICU Amharic day periods. */
const WESTERN_CLOCK = /\b(AM|PM)\b|ጥዋት|ከሰዓት(?! በኋላ)/;

/**
 * Issue 34 point 3a and 4 in the browser, in Amharic at 1366 px and on a 390 px phone: staff answer a
 * contact message from its dialog; the thread shows the reply with its author and an Ethiopian-hour
 * time; the message is marked replied; the email is in the outbox with its time on the shop clock.
 */
describe('back office: replying to a customer, on the shop clock (Chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  /** The back office in Amharic, signed in, on a 390 px phone or a 1366 px desktop. */
  const staffPage = (phone: boolean): Promise<Page> =>
    signedInStaffPage(browser, stack.admin, { lang: 'am', phone }, contexts, pageErrors);

  beforeAll(async () => {
    stack = await startStack({ apiEnv: { AUTH_RATE_LIMIT: '1000', CONTACT_RATE_LIMIT: '100' } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
  });

  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it.each([
    ['1366 px', false, 'desk'],
    ['a 390 px phone', true, 'phone'],
  ])(
    'at %s: a reply goes out from the dialog and shows in the thread and the outbox',
    async (_size, phone, tag) => {
      const email = `almaz.${tag}@example.et`;
      const sent = await apiJson(stack, 'POST', '/contacts/submit', undefined, {
        name: 'አልማዝ ደስታ',
        email,
        subject: 'ስለ ሺአ ቅቤ',
        message: 'ለደረቅ ቆዳ ይሆናል?',
        language: 'am',
      });
      expect(sent.status).toBe(201);
      const page = await staffPage(phone);
      await page.goto(`${stack.admin}/admin/contacts`);
      await page.getByText(email).first().waitFor();
      // the contacts list does not scroll sideways (a phone gets one line per message)
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(
        false,
      );
      await page.getByText(email).first().click();
      const dialog = page.getByTestId('contact-detail');
      await dialog.waitFor();
      // received on the shop clock, Ethiopian hours
      expect(await page.getByTestId('contact-received').innerText()).toMatch(ETHIOPIAN_TIME);
      // the dialog's opening transition: a click before it settles lands on the backdrop
      await page.waitForTimeout(500);
      await page.getByTestId('contact-reply-send').click();
      await dialog.getByText(am('admin.contacts.replyEmpty')).waitFor();

      await page.getByTestId('contact-reply-text').fill('አዎ፣ ለደረቅ ቆዳ ተስማሚ ነው።');
      const send = page.getByTestId('contact-reply-send');
      const box = await send.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(phone ? 390 : 1366);
      await send.click();
      const reply = page.getByTestId('contact-reply').first();
      await reply.getByText('አዎ፣ ለደረቅ ቆዳ ተስማሚ ነው።').waitFor();
      const meta = await page.getByTestId('contact-reply-meta').first().innerText();
      expect(meta).toMatch(ETHIOPIAN_TIME);
      expect(meta).not.toMatch(WESTERN_CLOCK);
      await dialog.getByText(am('admin.contacts.status.replied')).waitFor();
      // the dialog fits the screen and speaks Amharic (names, the address and the IP are the test's own)
      const paper = await page.locator('.MuiDialog-paper').boundingBox();
      expect(paper!.width).toBeLessThanOrEqual(phone ? 390 : 1366);
      const text = (await dialog.innerText())
        .split(email)
        .join('')
        .replace(/Selam Admin/g, '') // the seeded admin's name, the reply's author
        .replace(/\d+\.\d+\.\d+\.\d+|::ffff:|::1/g, '');
      expect(text.match(/[A-Za-z]{2,}/g) ?? []).toEqual([]);

      // the email waits in the outbox, its time on the shop clock
      await page.goto(`${stack.admin}/admin/notifications`);
      const row = page.locator('tr, li', { hasText: email }).first();
      await row.waitFor();
      const rowText = await row.innerText();
      expect(rowText).toMatch(ETHIOPIAN_TIME);
      expect(rowText).not.toMatch(WESTERN_CLOCK);
      expect(rowText).toContain('2019'); // the Ethiopian calendar year of 2026-27

      // and reached the local mail in Amharic
      const token = (await apiJson(stack, 'POST', '/auth/login', undefined, ADMIN)).body.token as string;
      const query = `/admin/mails?range=[0,9]&filter=${encodeURIComponent(JSON.stringify({ q: email }))}`;
      let subjects: string[] = [];
      for (let i = 0; i < 50 && !subjects.some((s) => s.includes('መልስ፦ ስለ ሺአ ቅቤ')); i++) {
        subjects = ((await apiJson(stack, 'GET', query, token)).body as { subject: string }[]).map(
          (m) => m.subject,
        );
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(subjects.some((s) => s.includes('መልስ፦ ስለ ሺአ ቅቤ'))).toBe(true);
    },
  );
});
