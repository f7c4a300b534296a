/**
 * A tap made offline and sent later by the service worker carries its own key (X-Shop-Tap-Key,
 * sw/queue.ts). When its answer is lost on the way (the connection dropped again), the service worker
 * sends it again: the storefront answers that second request with the first one's answer instead of
 * adding the product twice (docs/decisions/0094-pwa.md). Kept in this process's memory for 15 minutes
 * (at most 5,000 keys); requests without a key are carried out as always.
 */
const HEADER = 'X-Shop-Tap-Key';
const KEY = /^[A-Za-z0-9-]{16,64}$/;
export const TAP_KEY_TTL_MS = 15 * 60 * 1000;
const MAX_KEYS = 5000;

interface Kept {
  status: number;
  headers: [string, string][];
  body: string;
}

const answers = new Map<string, { at: number; answer: Promise<Kept> }>();

function forget(now: number): void {
  for (const [key, entry] of answers) {
    if (now - entry.at <= TAP_KEY_TTL_MS && answers.size <= MAX_KEYS) break;
    answers.delete(key);
  }
}

/** Carries out `run` once per tap key (a concurrent or later repeat gets the same answer). */
export async function oncePerTap(
  request: Request,
  run: () => Promise<Response>,
  now = Date.now(),
): Promise<Response> {
  const key = request.headers.get(HEADER);
  if (!key || !KEY.test(key)) return run();
  forget(now);
  let entry = answers.get(key);
  if (!entry) {
    const answer = run().then(async (res) => ({
      status: res.status,
      headers: [...res.headers.entries()],
      body: await res.text(),
    }));
    entry = { at: now, answer };
    answers.set(key, entry);
    answer.catch(() => answers.delete(key));
  }
  const kept = await entry.answer;
  const headers = new Headers();
  for (const [name, value] of kept.headers) headers.append(name, value);
  return new Response(kept.status === 204 || (kept.status >= 300 && kept.status < 400) ? null : kept.body, {
    status: kept.status,
    headers,
  });
}

/** Tests: forgets every key. */
export function forgetTapKeys(): void {
  answers.clear();
}
