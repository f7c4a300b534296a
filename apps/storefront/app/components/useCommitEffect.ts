import { useEffect, useLayoutEffect } from 'react';

/**
 * An effect that runs when its render is committed to the page, before the browser paints it (a layout
 * effect), for changes that belong to the same screen as the render: a focus trap in place as a menu
 * opens, a sent form emptied as its confirmation appears. A plain effect would run after the next paint,
 * and on a slow phone the shopper can type or tab in between. On the server (nothing is painted there)
 * it is a plain effect, which React does not warn about.
 */
export const useCommitEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;
