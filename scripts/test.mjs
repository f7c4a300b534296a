#!/usr/bin/env node
// `npm test`: lint first (ESLint, types, import cycles and Prettier over every project: `npm run lint`),
// then every test of every project through Nx, then one closing summary over all runners. A lint
// failure fails the run, after the tests (so one run shows everything). `--no-lint` skips it locally.
// Each project's runner writes a Jest-format JSON report to <project>/test-results.json.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const projectDirs = ['apps', 'libs']
  .flatMap((dir) => fs.readdirSync(path.join(root, dir)).map((name) => path.join(root, dir, name)))
  .concat(path.join(root, 'e2e'))
  .filter((dir) => fs.existsSync(path.join(dir, 'package.json')));
const reportOf = (dir) => path.join(dir, 'test-results.json');

for (const dir of projectDirs) fs.rmSync(reportOf(dir), { force: true });

const skipLint = process.argv.includes('--no-lint');
const lint = skipLint
  ? { status: 0 }
  : spawnSync('npm', ['run', 'lint'], {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false' },
    });

const args = [
  'nx',
  'run-many',
  '-t',
  'test',
  '--parallel=1',
  '--outputStyle=stream',
  ...process.argv.slice(2).filter((arg) => arg !== '--no-lint'),
];
const run = spawnSync('npx', args, {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, NX_DAEMON: 'false' },
});

let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
for (const dir of projectDirs) {
  const name = path.relative(root, dir);
  if (!fs.existsSync(reportOf(dir))) {
    rows.push(`  ${name.padEnd(24)} no report`);
    continue;
  }
  const report = JSON.parse(fs.readFileSync(reportOf(dir), 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  rows.push(
    `  ${name.padEnd(24)} ${String(report.numPassedTests).padStart(4)} passed ${String(report.numFailedTests).padStart(3)} failed`,
  );
}
const missing = rows.filter((r) => r.endsWith('no report')).length;
console.log('\nTest summary by project:\n' + rows.join('\n'));
const status = run.status !== 0 || failed > 0 || missing > 0 || lint.status !== 0 ? 1 : 0;
if (lint.status !== 0) console.log('Lint failed (see `npm run lint` above).');
else if (!skipLint) console.log('Lint passed.');
if (run.status !== 0 && failed === 0) console.log('A test target failed before reporting (see above).');
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status);
