import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';

/**
 * The page's title in the app bar, as react-admin's <Title preferenceKey={false}> draws it (a span in
 * `#react-admin-title`), without its preferences editor and the form fields that editor brings: the
 * dashboard loads with the sign-in (docs/decisions/0088-back-office-within-budget.md).
 */
export function LightTitle({ title }: { title: string }) {
  const [container, setContainer] = useState(() => document.getElementById('react-admin-title'));
  // the app bar may not be drawn yet on the first render
  useEffect(() => {
    setContainer((c) => (c && document.body.contains(c) ? c : document.getElementById('react-admin-title')));
  }, []);
  if (!container) return null;
  return createPortal(
    <span>
      <span>{title}</span>
    </span>,
    container,
  );
}
