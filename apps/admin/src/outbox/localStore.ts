/**
 * The development-only stores (local mail, local SMS) exist only where the API offers them: outside
 * production and without a real mail server or SMS gateway; elsewhere their list answers 404. Their
 * menu entries show once a first call has answered, and never after a 404.
 */
export const LOCAL_STORES = ['mails', 'sms'] as const;
export type LocalStore = (typeof LOCAL_STORES)[number];

export function isLocalStore(resource: string): resource is LocalStore {
  return (LOCAL_STORES as readonly string[]).includes(resource);
}

/** Whether a local store's menu entry shows, from its probe: not while it is asked, not when absent (404). */
export function localStoreOffered(probe: { isPending: boolean; error?: unknown }): boolean {
  if (probe.isPending) return false;
  if (!probe.error) return true;
  const status = (probe.error as { status?: unknown }).status;
  // another failure (a server error, the network) still shows the page, which then says what went wrong
  return status !== 404;
}
