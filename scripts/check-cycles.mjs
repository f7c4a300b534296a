#!/usr/bin/env node
// `node scripts/check-cycles.mjs <dir>...`: fails when the relative imports of a project's sources form
// a cycle. Type-only imports (`import type`, `export type`) are erased at build time and do not count.
// Run by each project's `lint` target (docs/decisions/0001-workspace-and-tooling.md, "npm run lint").
import * as fs from 'node:fs';
import * as path from 'node:path';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];
const IMPORT =
  /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'build', '.cache'].includes(entry.name) ? [] : sources(full);
    return EXTENSIONS.includes(path.extname(entry.name)) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier.replace(/\?.*$/, ''));
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => path.join(base, 'index' + ext)),
  ];
  // `./x.js` written for ESM may stand for `./x.ts`
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

/** Runtime edges only: a statement importing nothing but types is skipped. */
export function runtimeImports(text) {
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    if (match[4]) {
      found.push(match[4]);
      continue;
    }
    if (match[2]) continue;
    // `import { type A, type B } from './x'` names types only: erased too
    const clause = /(?:import|export)\s+([^'"]*?)\s+from\s+['"]/.exec(match[0])?.[1] ?? '';
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    const onlyTypes =
      !!named &&
      named[1]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '));
    if (!onlyTypes) found.push(match[3]);
  }
  return found;
}

export function findCycles(dirs) {
  const files = dirs.flatMap((dir) => sources(path.resolve(dir)));
  const graph = new Map(
    files.map((file) => [
      file,
      runtimeImports(fs.readFileSync(file, 'utf8'))
        .map((s) => resolveImport(file, s))
        .filter((target) => target && files.includes(target)),
    ]),
  );
  const cycles = [];
  const state = new Map(); // 1 visiting, 2 done
  const stack = [];
  const visit = (file) => {
    state.set(file, 1);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 1) cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 2);
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dirs = process.argv.slice(2);
  const cycles = findCycles(dirs.length ? dirs : ['.']);
  for (const cycle of cycles)
    console.error('import cycle: ' + cycle.map((f) => path.relative(process.cwd(), f)).join(' -> '));
  process.exit(cycles.length ? 1 : 0);
}
