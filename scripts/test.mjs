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
// eslint-disable-next-line no-control-regex -- the colour codes runners print
const ANSI_COLOURS = /\u001b\[[0-9;]*m/g;
const reportOf = (dir) => path.join(dir, 'test-results.json');
/** The first lines of a failure's message, without colours and without frames of node_modules or Node. */
const excerpt = (message) =>
  message
    .replace(ANSI_COLOURS, '')
    .split('\n')
    .filter((line) => line.trim() && !/node_modules|node:internal/.test(line))
    .slice(0, 12)
    .map((line) => `      ${line.trimEnd().slice(0, 200)}`)
    .join('\n');

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
const failures = [];
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
  for (const suite of report.testResults ?? []) {
    const file = path.relative(root, suite.name);
    for (const test of suite.assertionResults ?? [])
      if (test.status === 'failed')
        failures.push(`  ${file} › ${test.fullName}\n${excerpt((test.failureMessages ?? []).join('\n'))}`);
    if (suite.status === 'failed' && !(suite.assertionResults ?? []).length && suite.message)
      failures.push(`  ${file} (the suite failed to run)\n${excerpt(suite.message)}`);
  }
  rows.push(
    `  ${name.padEnd(24)} ${String(report.numPassedTests).padStart(4)} passed ${String(report.numFailedTests).padStart(3)} failed`,
  );
}
const missing = rows.filter((r) => r.endsWith('no report')).length;
// The failures again at the end, where a CI log that keeps only its tail still shows them.
if (failures.length) console.log('\nFailed tests:\n' + failures.join('\n\n'));
console.log('\nTest summary by project:\n' + rows.join('\n'));
const status = run.status !== 0 || failed > 0 || missing > 0 || lint.status !== 0 ? 1 : 0;
if (lint.status !== 0) console.log('Lint failed (see `npm run lint` above).');
else if (!skipLint) console.log('Lint passed.');
if (run.status !== 0 && failed === 0) console.log('A test target failed before reporting (see above).');
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status);
