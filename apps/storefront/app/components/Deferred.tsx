import { Suspense, useState, type ReactElement } from 'react';

/**
 * Progressive hydration (issue 14). The browser runs on Preact, which hydrates a page in one go: on a
 * slow phone the catalogue's hydration was one task of 400-475 ms (Lighthouse's Total Blocking Time).
 * A part of the page wrapped in `<Deferred>` keeps its server-rendered DOM while the page hydrates and is
 * hydrated afterwards in a task of its own, in document order, so that no task is long.
 *
 * How: during the first hydration the wrapper renders its child behind a Suspense boundary through a
 * component that throws a promise. Preact keeps the server's DOM of a component that suspends while
 * hydrating, and resumes hydrating it (adopting that DOM, not re-creating it) when the promise resolves;
 * the promises are resolved one per task. The child must render exactly one element (a card, the
 * footer). Until then the part is the server's HTML: links are links and forms post without JavaScript,
 * as they do before any hydration. On the server (React) and in every render after the first
 * hydration, `<Deferred>` is its child and nothing else: the markup is the same as without it.
 *
 * `html[data-hydrated]` is set once every deferred part is hydrated (the browser tests wait for it).
 */

interface Gate {
  open: boolean;
  promise: Promise<void>;
  release: () => void;
}

/** True only while entry.client.tsx runs Preact's first hydration. */
let hydrating = false;
const queue: Gate[] = [];
let draining = false;

function gate(): Gate {
  let release = () => {};
  const promise = new Promise<void>((resolve) => (release = resolve));
  const g: Gate = { open: false, promise, release: () => {} };
  g.release = () => {
    g.open = true;
    release();
  };
  return g;
}

function markHydrated() {
  document.documentElement.dataset.hydrated = 'true';
}

/** One deferred part per task (setTimeout: a tap or a scroll can be handled between two of them). */
function drain() {
  const next = queue.shift();
  if (!next) {
    draining = false;
    markHydrated();
    return;
  }
  next.release();
  setTimeout(drain);
}

/**
 * Runs the page's first hydration (`hydrate`, synchronous) with the deferral on, then starts hydrating
 * the deferred parts, one per task.
 */
export function hydrateProgressively(hydrate: () => void): void {
  hydrating = true;
  try {
    hydrate();
  } finally {
    hydrating = false;
  }
  if (!draining) {
    draining = true;
    setTimeout(drain);
  }
}

/** Called once the page has hydrated (root effect): without deferred parts to come, it is all hydrated. */
export function pageHydrated(): void {
  if (!draining) markHydrated();
}

function Wait({ gate, children }: { gate: Gate; children: ReactElement }) {
  if (!gate.open) throw gate.promise;
  return children;
}

/** Its child (one element), hydrated after the rest of the page; see above. */
export function Deferred({ children }: { children: ReactElement }) {
  const [pending] = useState(() => {
    if (!hydrating) return null;
    const g = gate();
    queue.push(g);
    return g;
  });
  if (!pending) return children;
  return (
    <Suspense fallback={null}>
      <Wait gate={pending}>{children}</Wait>
    </Suspense>
  );
}
