import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The contract check: schema.d.ts must be exactly what scripts/generate.mjs (openapi-typescript)
 * makes of openapi.yaml, so the frontends' types never drift from the API's answers. On a failure:
 * `npx nx run @shop/api-client:generate` (rewrites openapi.yaml from the API, then schema.d.ts).
 * The generator runs in its own Node process: openapi-typescript's parser is an ES module that
 * Jest's CommonJS runtime cannot load.
 */
describe('schema.d.ts', () => {
  it('is what openapi.yaml generates', () => {
    const generated = execFileSync(
      process.execPath,
      [join(__dirname, '../scripts/generate.mjs'), '--stdout'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const committed = readFileSync(join(__dirname, 'schema.d.ts'), 'utf8');
    expect(generated).toContain('export interface paths');
    // the first differing line names the drift instead of a diff of 250 kB of text
    const a = committed.split('\n');
    const b = generated.split('\n');
    const first = a.findIndex((line, i) => line !== b[i]);
    expect(first === -1 ? null : { line: first + 1, committed: a[first], generated: b[first] }).toBeNull();
    expect(committed).toBe(generated);
  }, 60_000);
});
