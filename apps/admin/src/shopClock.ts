import { SHOP_TIME_ZONE } from '@shop/shared';
import { useEffect, useSyncExternalStore } from 'react';

/**
 * The shop clock (settings `timezone`, docs/decisions/0081-replies-shop-clock-reports.md): every date
 * and time of the back office is shown in it. Read once from the settings after sign-in (Addis Ababa
 * until then, the default), and set again when the settings are saved.
 */
let zone: string = SHOP_TIME_ZONE;
let requested = false;
const listeners = new Set<() => void>();

export function setShopTimeZone(next: string | undefined): void {
  if (!next || next === zone) return;
  zone = next;
  for (const listener of listeners) listener();
}

export function shopTimeZone(): string {
  return zone;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Reads the settings' zone once per page load (a failure keeps the default: nothing to show). */
function loadOnce() {
  if (requested) return;
  requested = true;
  void import('./shopApi')
    .then(({ shopClient }) => shopClient().GET('/api/admin/settings'))
    .then(
      ({ data }) => setShopTimeZone(data?.settings?.timezone),
      () => undefined,
    );
}

/** The shop's time zone, re-rendering when it changes. */
export function useShopTimeZone(): string {
  useEffect(loadOnce, []);
  return useSyncExternalStore(subscribe, shopTimeZone, shopTimeZone);
}
