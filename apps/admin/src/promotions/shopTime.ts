import { zonedParts } from '@shop/shared';

/**
 * A sale's start and end are typed as the shop's wall-clock time (docs/decisions/0095), whatever the
 * browser's zone: `datetime-local` text ('2027-01-15T09:00') in the shop's zone <-> an ISO instant.
 */
export function isoToShopLocal(iso: string | Date | null | undefined, zone: string): string {
  if (!iso) return '';
  const p = zonedParts(iso, zone);
  if (!p) return '';
  return `${p.year}-${p.month}-${p.day}T${String(p.hour).padStart(2, '0')}:${p.minute}`;
}

/** The instant at which the shop's clock reads `local` (the zone's offset at that moment). */
export function shopLocalToIso(local: string | null | undefined, zone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local ?? '');
  if (!m) return undefined;
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  // the zone's offset near that instant, read twice so a change of offset in between is followed
  let instant = asUtc;
  for (let i = 0; i < 2; i++) {
    const p = zonedParts(instant, zone);
    if (!p) return undefined;
    const shown = Date.UTC(+p.year, +p.month - 1, +p.day, p.hour, +p.minute);
    instant = asUtc - (shown - instant);
  }
  return new Date(instant).toISOString();
}
