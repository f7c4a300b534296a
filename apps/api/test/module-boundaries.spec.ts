import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Module boundaries (docs/decisions/0009-module-boundaries.md): a module owns its collection. Other
 * modules, `common/` and the app call its exported service; they never import its `schemas/` and no
 * module exports its Mongoose models. The demo seed is the one documented exception.
 */
const SRC = resolve(__dirname, '../src');
const MODULES = join(SRC, 'modules');
/** Bulk-loads demo documents with fixed dates and keys: it registers the models itself (seed.module.ts). */
const ALLOWED_OUTSIDERS = [join(SRC, 'seed') + sep];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, `import()` and `require()`. */
export function specifiersOf(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The module that owns a path under src/modules (its first folder), or undefined. */
function owningModule(path: string): string | undefined {
  const rel = relative(MODULES, path);
  if (rel.startsWith('..')) return undefined;
  return rel.split(sep)[0];
}

/** `file` imports another module's schemas/: answers the offending specifiers. */
export function schemaTrespasses(file: string, text: string): string[] {
  if (ALLOWED_OUTSIDERS.some((prefix) => file.startsWith(prefix))) return [];
  const own = owningModule(file);
  return specifiersOf(text).filter((specifier) => {
    if (!specifier.startsWith('.')) return false;
    const target = resolve(dirname(file), specifier);
    const owner = owningModule(target);
    if (!owner || owner === own) return false;
    return relative(join(MODULES, owner), target).split(sep)[0] === 'schemas';
  });
}

const COMMON = join(SRC, 'common');

/**
 * `file`, under src/common, imports something under src/modules (type-only imports included):
 * answers the offending specifiers. `common/` is what every module may use, so it depends on no
 * module; where it needs one (the guards' session lookup), a module provides an injection token
 * that `common/` declares.
 */
export function commonTrespasses(file: string, text: string): string[] {
  if (relative(COMMON, file).startsWith('..')) return [];
  return specifiersOf(text).filter(
    (specifier) =>
      specifier.startsWith('.') && !relative(MODULES, resolve(dirname(file), specifier)).startsWith('..'),
  );
}

const CACHE = join(SRC, 'cache');

/**
 * `file`, under src/modules, imports something under src/cache: answers the offending specifiers.
 * The domain never calls a cache (docs/decisions/0046-one-cache-layer.md): a module that reads
 * through one declares an injection token (CATALOGUE_READS, SETTINGS_READS, SESSION_READS) that the
 * cache module provides.
 */
export function cacheTrespasses(file: string, text: string): string[] {
  if (relative(MODULES, file).startsWith('..')) return [];
  return specifiersOf(text).filter(
    (specifier) =>
      specifier.startsWith('.') && !relative(CACHE, resolve(dirname(file), specifier)).startsWith('..'),
  );
}

describe('module boundaries', () => {
  const files = sourceFiles(SRC);

  it('common/ imports no module', () => {
    const trespasses = files.flatMap((file) =>
      commonTrespasses(file, readFileSync(file, 'utf8')).map((s) => `${relative(SRC, file)} -> ${s}`),
    );
    expect(trespasses).toEqual([]);
  });

  it('the common/ check catches a module service, a type-only import and a dynamic one, and allows common/ and cache/', () => {
    const guard = join(COMMON, 'auth', 'jwt-auth.guard.ts');
    expect(
      commonTrespasses(guard, "import { UsersService } from '../../modules/users/users.service';"),
    ).toEqual(['../../modules/users/users.service']);
    expect(
      commonTrespasses(
        join(COMMON, 'x.ts'),
        "import type { SettingsService } from '../modules/settings/settings.service';\nconst m = import('../modules/auth/auth.module');",
      ),
    ).toHaveLength(2);
    expect(commonTrespasses(guard, "import { DomainError } from '../errors/domain-error';")).toEqual([]);
    expect(commonTrespasses(guard, "import { SessionCache } from '../../cache/session-cache';")).toEqual([]);
    // a module importing another module is not this rule's business
    expect(
      commonTrespasses(
        join(MODULES, 'cart', 'cart.service.ts'),
        "import { ProductsService } from '../catalog/products.service';",
      ),
    ).toEqual([]);
  });

  it('no module imports the cache layer (cache/)', () => {
    const trespasses = files.flatMap((file) =>
      cacheTrespasses(file, readFileSync(file, 'utf8')).map((s) => `${relative(SRC, file)} -> ${s}`),
    );
    expect(trespasses).toEqual([]);
  });

  it('the cache/ check catches a module importing a cache, and allows the cache importing a module', () => {
    expect(
      cacheTrespasses(
        join(MODULES, 'auth', 'token-sessions.ts'),
        "import { SessionCache } from '../../cache/session-cache';",
      ),
    ).toEqual(['../../cache/session-cache']);
    expect(
      cacheTrespasses(
        join(CACHE, 'cache.module.ts'),
        "import { SESSION_READS } from '../modules/auth/session-reads';",
      ),
    ).toEqual([]);
  });

  it('no module, common/ or app code imports another module’s schemas/', () => {
    const trespasses = files.flatMap((file) =>
      schemaTrespasses(file, readFileSync(file, 'utf8')).map((s) => `${relative(SRC, file)} -> ${s}`),
    );
    expect(trespasses).toEqual([]);
  });

  it('no module exports its Mongoose models (MongooseModule) to others', () => {
    const exporting = files
      .filter((file) => file.endsWith('.module.ts'))
      .filter((file) => /exports\s*:\s*\[[^\]]*\bMongooseModule\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    // the database module shares the connection itself (forRoot), never a collection
    expect(exporting).toEqual(['database/database.module.ts']);
  });

  it('the check catches a trespass, a type-only one and a re-export, and allows a module its own schemas', () => {
    const orders = join(MODULES, 'payments', 'payments.service.ts');
    expect(schemaTrespasses(orders, "import { Order } from '../orders/schemas/order.schema';")).toEqual([
      '../orders/schemas/order.schema',
    ]);
    expect(
      schemaTrespasses(
        join(MODULES, 'admin', 'dto', 'x.ts'),
        "import type { Product } from '../../catalog/schemas/product.schema';\nexport { User } from '../../users/schemas/user.schema';",
      ),
    ).toHaveLength(2);
    expect(
      schemaTrespasses(
        join(SRC, 'common', 'auth', 'guard.ts'),
        "import { User } from '../../modules/users/schemas/user.schema';",
      ),
    ).toHaveLength(1);
    expect(schemaTrespasses(orders, "import { Payment } from './schemas/payment.schema';")).toEqual([]);
    expect(
      schemaTrespasses(
        join(MODULES, 'payments', 'providers', 'p.ts'),
        "import type { P } from '../schemas/payment.schema';",
      ),
    ).toEqual([]);
    expect(
      schemaTrespasses(orders, "import { ProductsService } from '../catalog/products.service';"),
    ).toEqual([]);
  });
});
