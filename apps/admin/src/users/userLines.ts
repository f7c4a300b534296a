/** The fields of a user record the list shows (an account made by phone sign-in has no email and maybe no name yet). */
export interface UserIdentity {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
}

export type UserLine = { key: 'email' | 'phone'; text: string } | { key: 'noEmail'; text?: undefined };

/**
 * What the users list shows of an account: the name as title (else the email, else the phone), then
 * the email and the phone when they are not already the title; a phone-only account says it has no email.
 */
export function userLines(u: UserIdentity): { title: string; lines: UserLine[] } {
  const name = u.name?.trim() ?? '';
  const email = u.email?.trim() ?? '';
  const phone = u.phone?.trim() ?? '';
  const title = name || email || phone;
  const lines: UserLine[] = [];
  if (email && email !== title) lines.push({ key: 'email', text: email });
  if (phone && phone !== title) lines.push({ key: 'phone', text: phone });
  if (!email) lines.push({ key: 'noEmail' });
  return { title, lines };
}
