import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { RestartDelay, workersConfig, WorkersConfigError } = require('./cluster.cjs');

describe('STOREFRONT_WORKERS', () => {
  it('is one server process unless set', () => {
    expect(workersConfig({}, 8)).toBe(1);
    expect(workersConfig({ STOREFRONT_WORKERS: '  ' }, 8)).toBe(1);
  });

  it('takes a whole number, or one per core for auto', () => {
    expect(workersConfig({ STOREFRONT_WORKERS: '3' }, 8)).toBe(3);
    expect(workersConfig({ STOREFRONT_WORKERS: 'auto' }, 2)).toBe(2);
    expect(workersConfig({ STOREFRONT_WORKERS: 'AUTO' }, 128)).toBe(64);
  });

  it.each(['0', '-1', '2.5', 'two', '65', '1e1x'])('refuses %s with the variable named', (raw) => {
    expect(() => workersConfig({ STOREFRONT_WORKERS: raw }, 8)).toThrow(WorkersConfigError);
    expect(() => workersConfig({ STOREFRONT_WORKERS: raw }, 8)).toThrow(/STOREFRONT_WORKERS/);
  });
});

describe('the delay before a worker is started again', () => {
  it('doubles from 0.5 s up to 10 s while the worker keeps dying soon after its start', () => {
    const delay = new RestartDelay();
    expect([1, 2, 3, 4, 5, 6, 7].map(() => delay.next(100))).toEqual([
      500, 1000, 2000, 4000, 8000, 10000, 10000,
    ]);
  });

  it('is 0.5 s again for a worker that ran 30 s or more', () => {
    const delay = new RestartDelay();
    delay.next(100);
    delay.next(100);
    expect(delay.next(30_000)).toBe(500);
    expect(delay.next(100)).toBe(1000);
  });
});
