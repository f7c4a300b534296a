import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * No file of the repository points at documents outside it (docs/decisions/0045-documents-that-explain.md):
 * the product rules are cited as `docs/product.md §N`, decisions as a record under `docs/decisions/`,
 * never as the specification's own files or its numbered sections, which are not in the repository.
 * Every file git tracks (and every new file it does not ignore) is read, whatever its area: code,
 * tests, Swagger descriptions, the generated openapi.yaml and typed client, documents, scripts.
 *
 * The words searched for are assembled below, so that this file does not name them itself.
 */
const REPO = resolve(__dirname, '../../..');

/** Lock files quote package names, not documents; their size makes them slow to read for nothing. */
const SKIPPED = new Set(['package-lock.json']);
const BINARY = /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|otf|pdf|zip|gz|tgz|wasm)$/i;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'build', '.nx', '.cache', 'coverage']);

const SPEC_NAME = 'spec'.toUpperCase();
const DEC_NAME = 'decisions'.toUpperCase();
const SHARED = ['..', 'shared'].join('/');
const SHARED_SPEC = ['shared', 'spec'].join('/');
const OUTSIDE: { what: string; pattern: RegExp }[] = [
  { what: `"${SPEC_NAME} section N"`, pattern: new RegExp(`\\b${SPEC_NAME}\\s+(sections?|§)`, 'i') },
  { what: `${SPEC_NAME}.md`, pattern: new RegExp(`\\b${SPEC_NAME}\\.md\\b`, 'i') },
  // the specification's name in capitals, as its file is spelt: "the ${SPEC_NAME} route", "${SPEC_NAME}: …"
  { what: SPEC_NAME, pattern: new RegExp(`\\b${SPEC_NAME}\\b`) },
  // the decisions file's name in capitals: "${DEC_NAME}.md", "(${DEC_NAME}: …)" (docs/decisions/ is in lower case)
  { what: `${DEC_NAME}.md`, pattern: new RegExp(`\\b${DEC_NAME}\\b`) },
  { what: SHARED_SPEC, pattern: new RegExp(`\\b${SHARED_SPEC}\\b`) },
  // a path out of the repository; a quoted module specifier (an import of a sibling `shared` folder) is not
  { what: SHARED, pattern: new RegExp(`(^|[^\\w.'"])${SHARED.replace(/\./g, '\\.')}\\b`) },
];

/** What a line refers to outside the repository, if anything. */
export function outsideReferences(line: string): string[] {
  return OUTSIDE.filter(({ pattern }) => pattern.test(line)).map(({ what }) => what);
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED_DIRS.has(name)) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(REPO, path)];
  });
}

/** The repository's files: git's list of tracked and not-ignored files, or (without git) a walk of the tree. */
function repositoryFiles(): string[] {
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: REPO,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    files = walk(REPO);
  }
  return [...new Set(files)].filter(
    (file) =>
      !SKIPPED.has(file.split('/').pop()!) &&
      !file.split('/').some((part) => SKIPPED_DIRS.has(part)) &&
      !BINARY.test(file) &&
      existsSync(join(REPO, file)),
  );
}

describe('no reference outside the repository', () => {
  it('recognises the outside documents and leaves the repository’s own alone', () => {
    const outside = [
      `/** Password rules (${SPEC_NAME} section 5). */`,
      `// the sign-up form of ${SPEC_NAME} sections 5 and 7`,
      `(${SPEC_NAME} § 9)`,
      `see ${SHARED}/spec/${SPEC_NAME}.md`,
      `as ${DEC_NAME}.md, revised, says`,
      `(${DEC_NAME}: Language)`,
      `// ${SPEC_NAME}: after sign-in an admin goes to the dashboard`,
      `read ${SHARED}/spec/ first`,
      `see ${SHARED} for the rules`,
    ];
    for (const line of outside)
      expect({ line, refs: outsideReferences(line).length > 0 }).toEqual({ line, refs: true });
    const inside = [
      '/** Password rules (docs/product.md §5). */',
      'docs/decisions/0012-spec-clients-work-unchanged.md',
      'apps/api/test/contract/spec-section-7.e2e-spec.ts',
      "it('answers the spec shape', () => {",
      `import { x } from '${SHARED}/x';`,
      'the decisions of docs/decisions/README.md',
      'const SPEC_MESSAGES = {};',
    ];
    for (const line of inside) expect({ line, refs: outsideReferences(line) }).toEqual({ line, refs: [] });
  });

  it('finds no file that cites the specification’s files or sections, or the decisions file, outside the repository', () => {
    const files = repositoryFiles();
    // it cannot pass by reading nothing: the whole tree, every area, is read
    expect(files.length).toBeGreaterThan(400);
    for (const known of [
      'apps/api/src/main.ts',
      'apps/storefront/app/root.tsx',
      'apps/admin/src/App.tsx',
      'libs/shared/src/pricing.ts',
      'docs/product.md',
      'openapi.yaml',
      'apps/api/test/no-outside-references.spec.ts',
    ]) {
      expect(files).toContain(known);
    }

    const found: string[] = [];
    let lines = 0;
    for (const file of files) {
      const text = readFileSync(join(REPO, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        lines += 1;
        const refs = outsideReferences(line);
        if (refs.length) found.push(`${file}:${i + 1}: ${refs.join(', ')}: ${line.trim().slice(0, 160)}`);
      });
    }
    expect(lines).toBeGreaterThan(50_000);
    // cite docs/product.md §N or a record under docs/decisions/ instead
    expect(found).toEqual([]);
  });
});
