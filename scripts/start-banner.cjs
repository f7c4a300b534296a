'use strict';
// What `npm start` (scripts/start.mjs) prints once the shop is up, and how it knows that it is: kept
// apart from start.mjs so that a test can check both without building and starting the shop.

/** At most about 20 lines: where each app runs, the database engine, the demo accounts, and last 'Shop is up'. */
function banner({ apiUrl, storefrontUrl, adminUrl, engine, accounts }) {
  const lines = [
    '',
    `  Storefront  ${storefrontUrl}`,
    `  Admin       ${adminUrl}`,
    `  API         ${apiUrl}  (docs ${apiUrl}/docs, readiness ${apiUrl}/health/ready)`,
    `  Database    ${engine ?? 'unknown engine'}`,
  ];
  const demo = Object.entries(accounts ?? {});
  if (demo.length) {
    lines.push('  Demo accounts (seeded into an empty database):');
    for (const [role, account] of demo)
      lines.push(`    ${role.padEnd(9)} ${account.email} / ${account.password}`);
  }
  lines.push(
    '  Logs follow, one line per request; Ctrl+C stops everything.',
    '',
    `Shop is up: ${storefrontUrl}`,
  );
  return lines;
}

/** How the engine the API chose reads (GET /api/health → database.engine). */
function engineLabel(kind) {
  if (kind === 'embedded') return 'embedded MongoDB-compatible engine (libs/embedded-mongo), data in .data/';
  if (kind === 'memory-server') return 'mongod from mongodb-memory-server';
  if (kind === 'external') return 'MongoDB at MONGODB_URI';
  return kind;
}

/**
 * Resolves once every URL answers with a status below 500 (true), or false once `timeoutMs` has gone by;
 * `stopped()` ends the wait early (a child exited).
 */
async function waitUntilAnswering(
  urls,
  { timeoutMs = 120000, intervalMs = 500, stopped = () => false } = {},
) {
  const end = Date.now() + timeoutMs;
  const pending = new Set(urls);
  while (pending.size) {
    for (const url of [...pending]) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer().catch(() => undefined);
        if (res.status < 500) pending.delete(url);
      } catch {
        // not listening yet
      }
    }
    if (!pending.size) return true;
    if (stopped() || Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return true;
}

module.exports = { banner, engineLabel, waitUntilAnswering };
