import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { DEFAULT_LANGUAGE, isLanguage } from '@shop/i18n';
import { languageCookie } from '../language';

/** Switches the language without JavaScript: sets the cookie and goes back. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const lang = form.get('lang');
  const back = String(form.get('redirectTo') || '/');
  const target = back.startsWith('/') && !back.startsWith('//') ? back : '/';
  return redirect(target, {
    headers: { 'Set-Cookie': languageCookie(isLanguage(lang) ? lang : DEFAULT_LANGUAGE) },
  });
}

export const loader = () => redirect('/');
