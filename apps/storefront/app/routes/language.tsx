import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { DEFAULT_LANGUAGE, isLanguage } from '@shop/i18n';
import { isSameSitePath } from '@shop/shared';
import { settle } from '../account/api.server';
import { languageCookie, localePath } from '../language';
import { apiFor, tokenFromRequest } from '../session.server';

/**
 * Switches the language without JavaScript: sets the remembered choice (cookie) and goes to the same page
 * (its query kept) in the chosen language: `/am/…` or the root (docs/decisions/0092). A signed-in customer's
 * account takes the language too: the shop's messages to them use it
 * (docs/decisions/0077-links-and-message-language.md). The switch never waits on that failing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const chosen = form.get('lang');
  const lang = isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
  const back = form.get('redirectTo');
  const target = isSameSitePath(back) ? back : '/';
  if (tokenFromRequest(request) && isLanguage(chosen))
    await settle(apiFor(request).PUT('/api/users/profile', { body: { language: lang } }));
  return redirect(localePath(lang, target), {
    headers: { 'Set-Cookie': languageCookie(lang), 'Cache-Control': 'private, no-store' },
  });
}

export const loader = () => redirect('/');
