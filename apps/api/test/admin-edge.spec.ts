import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The back office's protocols at its edge (docs/decisions/0013-admin-list-protocol.md): react-admin's
 * list calls and the specification's second list shape are parsed in modules/admin only; the owning
 * modules' services take typed queries (common/list-query). So nothing outside modules/admin (no
 * other module, nothing in common/ or cache/) imports from it; the app module registers it.
 */
const SRC = resolve(__dirname, '../src');
const ADMIN = join(SRC, 'modules', 'admin');
const REGISTERS_IT = [join(SRC, 'app.module.ts')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative imports of a file that land in modules/admin (static, re-exports, `import()`, `require()`). */
export function adminImports(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .filter((specifier) => {
      const target = resolve(dirname(file), specifier);
      return target === ADMIN || target.startsWith(ADMIN + sep);
    });
}

describe('the back office at its edge', () => {
  it('nothing outside modules/admin imports from it', () => {
    const files = sourceFiles(SRC).filter(
      (file) => !file.startsWith(ADMIN + sep) && !REGISTERS_IT.includes(file),
    );
    expect(files.length).toBeGreaterThan(50);
    const crossing = files.flatMap((file) =>
      adminImports(file, readFileSync(file, 'utf8')).map((s) => `${relative(SRC, file)} -> ${s}`),
    );
    expect(crossing).toEqual([]);
  });

  it('the check sees an import, a type-only import, a re-export and a dynamic import of the admin module', () => {
    const orders = join(SRC, 'modules', 'orders', 'orders.service.ts');
    const text = [
      "import { readListQuery } from '../admin/list/react-admin';",
      "import type { FilterValue } from '../admin/list/react-admin';",
      "export { specList } from '../admin/list/spec-list';",
      "const later = () => import('../admin/admin.module');",
      "import { Changes } from '../../common/changes';",
    ].join('\n');
    expect(adminImports(orders, text)).toEqual([
      '../admin/list/react-admin',
      '../admin/list/react-admin',
      '../admin/list/spec-list',
      '../admin/admin.module',
    ]);
  });
});
