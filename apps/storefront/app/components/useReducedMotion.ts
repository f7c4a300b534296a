import { useEffect, useState } from 'react';

/** True when the user asked the system for reduced motion. */
export function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    setReduced(query.matches);
    const onChange = () => setReduced(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/** Advances `step` every `ms` unless paused. */
export function useAutoAdvance(step: () => void, ms: number, paused: boolean, key: unknown) {
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(step, ms);
    return () => clearTimeout(timer);
    // restart the timer whenever the slide changes
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `step` is a new closure every render; `key` (the slide) restarts the timer
  }, [paused, key, ms]);
}
