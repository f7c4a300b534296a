import { useRef, type RefObject } from 'react';
import { useCommitEffect } from './useCommitEffect';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The elements Tab reaches inside `parts`, in document order, that are shown. */
function focusables(parts: (HTMLElement | null)[]): HTMLElement[] {
  const found = parts.flatMap((part) =>
    part ? [part, ...Array.from(part.querySelectorAll<HTMLElement>(FOCUSABLE))] : [],
  );
  return found
    .filter((el) => el.matches(FOCUSABLE) && el.tabIndex >= 0 && el.getClientRects().length > 0)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/**
 * While `open`: Tab and Shift+Tab cycle through the focusable elements of `parts` only (a drawer, a
 * menu and its toggle), Escape calls `close`. Once closed again, focus returns to `opener` (the button
 * that opened it), unless the shopper has moved it elsewhere meanwhile (a link that navigated).
 */
export function useFocusTrap(
  open: boolean,
  parts: RefObject<HTMLElement | null>[],
  close: () => void,
  opener: RefObject<HTMLElement | null>,
): void {
  const wasOpen = useRef(false);
  const closeRef = useRef(close);
  closeRef.current = close;

  // in place as the drawer or menu opens: a Tab right after opening it already stays inside
  useCommitEffect(() => {
    if (!open) {
      if (wasOpen.current) {
        wasOpen.current = false;
        const active = document.activeElement;
        const inside = parts.some((p) => p.current && active && p.current.contains(active));
        if (!active || active === document.body || inside) opener.current?.focus();
      }
      return;
    }
    wasOpen.current = true;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        closeRef.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const list = focusables(parts.map((p) => p.current));
      if (!list.length) return;
      // moved by hand: the parts need not be next to each other in the page (a menu and its toggle)
      e.preventDefault();
      const index = list.indexOf(document.activeElement as HTMLElement);
      const next = e.shiftKey
        ? list[index <= 0 ? list.length - 1 : index - 1]
        : list[index === -1 || index === list.length - 1 ? 0 : index + 1];
      next.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
    // parts and opener are refs (stable): only `open` matters
  }, [open]);
}
