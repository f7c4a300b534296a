import { Link } from './Localized';
import { useEffect, useSyncExternalStore } from 'react';
import { useShop } from '../shop-context';

export const TOAST_MS = 5000;

export interface ToastMessage {
  /** increases with every toast, so that the same product added twice is announced twice */
  id: number;
  /** the product's name in the page's language */
  name?: string;
}

let current: ToastMessage | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows the add-to-cart confirmation (replacing the one showing). */
export function showToast(name?: string): void {
  current = { id: nextId++, name };
  emit();
}

export function hideToast(): void {
  current = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The add-to-cart confirmation: a small card at the bottom of the screen with 'View cart' and
 * 'Checkout', for 5 s. Its live region is always in the page (empty until something is added), so that
 * screen readers announce the text when it appears.
 */
export function Toast() {
  const { t } = useShop();
  const toast = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(hideToast, TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-atomic="true">
      {toast && (
        <div className="toast" key={toast.id} data-testid="cart-toast">
          <p>
            <span aria-hidden="true" className="toast-tick">
              ✓
            </span>{' '}
            <strong>{t('product.addedToCart')}</strong>
          </p>
          {toast.name && <p className="toast-name">{toast.name}</p>}
          <p className="toast-actions">
            <Link to="/cart" className="button small light-outline" onClick={hideToast}>
              {t('ui.viewCart')}
            </Link>
            <Link to="/checkout" className="button small" onClick={hideToast}>
              {t('ui.checkout')}
            </Link>
            <button type="button" className="toast-close" onClick={hideToast} aria-label={t('ui.dismiss')}>
              ×
            </button>
          </p>
        </div>
      )}
    </div>
  );
}
