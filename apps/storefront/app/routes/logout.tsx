import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { settle } from '../account/api.server';
import { apiFor, clearSessionCookie } from '../session.server';

/** Signs out: tells the API, then forgets the token whatever it answered. */
export async function action({ request }: ActionFunctionArgs) {
  const result = await settle(apiFor(request).POST('/api/auth/logout'));
  if (!result.ok) console.error('An error occurred during logout', result.status, result.code);
  return redirect('/', { headers: { 'Set-Cookie': clearSessionCookie() } });
}

export const loader = () => redirect('/');
