export interface AuditRecordLike {
  action: string;
  entity?: string;
  actor?: { name?: string; email?: string } | string | null;
  actorEmail?: string | null;
  actorName?: string | null;
  source?: string | null;
  from?: unknown;
  to?: unknown;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

const SOURCES = ['webhook', 'verify', 'reverify', 'test'];

/** Who made a change: the admin's name (else email), or what did it without anyone signed in ('Chapa webhook', 'Payment re-check'). */
export function auditActor(a: AuditRecordLike, t: Translate): string {
  const person = typeof a.actor === 'object' && a.actor ? a.actor : undefined;
  const name = a.actorName ?? person?.name;
  const email = a.actorEmail ?? person?.email;
  if (name && email) return `${name} (${email})`;
  if (name || email) return (name ?? email)!;
  if (a.source && SOURCES.includes(a.source)) return t(`shop.admin.audit.actors.${a.source}`);
  if (a.actor) return t('shop.admin.audit.actors.unknown');
  // payment events recorded before sources were kept came from Chapa's side
  return t(
    a.action === 'order.paymentStatus' ? 'shop.admin.audit.actors.webhook' : 'shop.admin.audit.actors.system',
  );
}

/** The action in words; an unknown action shows as it is. */
export function auditAction(a: AuditRecordLike, t: Translate): string {
  const key = `shop.admin.audit.actions.${a.action.replace(/\./g, '_')}`;
  const text = t(key);
  return text === key ? a.action : text;
}

/** A value in words where it is one of the shop's known values (statuses, roles, yes/no). */
export function auditValue(a: AuditRecordLike, value: unknown, t: Translate): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return t(value ? 'shop.admin.audit.yes' : 'shop.admin.audit.no');
  const lookups: Record<string, string> = {
    'order.status': 'shop.admin.orders.status',
    'order.paymentStatus': 'shop.admin.orders.paymentStatuses',
    'user.role': 'shop.admin.users.roles',
  };
  const base = lookups[a.action];
  if (base && typeof value === 'string') {
    const key = `${base}.${value}`;
    const text = t(key);
    return text === key ? value : text;
  }
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${fieldLabel(k, t)}: ${fieldValue(k, v, t)}`)
      .join(', ');
  return String(value);
}

/** The fields a change may name (a payment collected on delivery, a product created), in words; others as they are. */
const FIELD_LABELS: Record<string, string> = {
  paymentStatus: 'shop.admin.orders.paymentStatus',
  paymentReference: 'shop.admin.orders.paymentReference',
  // a product created: its price and stock
  price: 'shop.admin.products.price',
  stock: 'shop.admin.products.stock',
  originalPrice: 'shop.admin.products.compareAt',
  active: 'shop.admin.products.onSale',
};

function fieldLabel(field: string, t: Translate): string {
  return FIELD_LABELS[field] ? t(FIELD_LABELS[field]) : field;
}

function fieldValue(field: string, value: unknown, t: Translate): string {
  if (typeof value === 'boolean') return t(value ? 'shop.admin.audit.yes' : 'shop.admin.audit.no');
  if (field === 'paymentStatus' && typeof value === 'string') {
    const key = `shop.admin.orders.paymentStatuses.${value}`;
    const text = t(key);
    return text === key ? value : text;
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
