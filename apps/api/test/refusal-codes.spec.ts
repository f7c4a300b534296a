import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * Every refusal carries a code (docs/decisions/0052-every-refusal-has-a-code.md): a
 * `new DomainError(...)`, or a `new` of any class extending it, in apps/api/src names its code, so
 * that no client has to show the API's English. A class that sets its own code (no `code` parameter)
 * is fine; its `super(...)` call is checked instead. Read with the TypeScript parser, not patterns,
 * so line breaks, nesting and comments change nothing.
 */
const SRC = resolve(__dirname, '../src');
const ROOT = 'DomainError';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    // unit tests beside the sources build refusals of every kind on purpose
    return /\.ts$/.test(path) && !/\.(d|spec|test)\.ts$/.test(path) ? [path] : [];
  });
}

interface RefusalClass {
  parent?: string;
  /** Position of the constructor's `code` parameter; -1 when the class sets its code itself; undefined: inherited. */
  codeAt?: number;
}

/** Every class declared in the files, with what it extends and where its constructor takes `code`. */
function classesOf(files: ts.SourceFile[]): Map<string, RefusalClass> {
  const classes = new Map<string, RefusalClass>();
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) && node.name) {
      const extendsClause = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
      const parentExpr = extendsClause?.types[0]?.expression;
      const ctor = node.members.find(ts.isConstructorDeclaration);
      const codeAt = ctor
        ? ctor.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === 'code')
        : undefined;
      classes.set(node.name.text, {
        parent: parentExpr && ts.isIdentifier(parentExpr) ? parentExpr.text : undefined,
        codeAt,
      });
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(file);
  return classes;
}

/** The refusal classes (DomainError and what extends it) and where each constructor takes the code. */
function refusalClasses(classes: Map<string, RefusalClass>): Map<string, number> {
  const codeAt = new Map<string, number>();
  const resolveClass = (name: string, seen = new Set<string>()): number | undefined => {
    if (codeAt.has(name)) return codeAt.get(name);
    const info = classes.get(name);
    if (!info || seen.has(name)) return undefined;
    seen.add(name);
    if (name !== ROOT) {
      if (!info.parent) return undefined;
      const parentAt = resolveClass(info.parent, seen);
      if (parentAt === undefined) return undefined;
      if (info.codeAt === undefined) {
        codeAt.set(name, parentAt);
        return parentAt;
      }
    }
    const at = info.codeAt ?? -1;
    codeAt.set(name, at);
    return at;
  };
  for (const name of classes.keys()) resolveClass(name);
  return codeAt;
}

export interface Finding {
  file: string;
  line: number;
  text: string;
}

/** Constructions of refusal classes (`new X(...)`, and `super(...)` inside one) without a code argument. */
export function uncoded(files: ts.SourceFile[]): { findings: Finding[]; checked: number; classes: string[] } {
  const refusals = refusalClasses(classesOf(files));
  const findings: Finding[] = [];
  let checked = 0;
  const check = (file: ts.SourceFile, node: ts.Node, className: string, args: readonly ts.Expression[]) => {
    const at = refusals.get(className);
    if (at === undefined || at < 0) return;
    checked++;
    const arg = args[at];
    const missing =
      arg === undefined ||
      (ts.isIdentifier(arg) && arg.text === 'undefined') ||
      ts.isVoidExpression(arg) ||
      args.slice(0, at + 1).some(ts.isSpreadElement);
    if (missing) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      const text = node.getText(file).replace(/\s+/g, ' ');
      findings.push({ file: file.fileName, line: line + 1, text: text.slice(0, 120) });
    }
  };
  for (const file of files) {
    const visit = (node: ts.Node, inClass?: string) => {
      if (ts.isClassDeclaration(node) && node.name) inClass = node.name.text;
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression))
        check(file, node, node.expression.text, node.arguments ?? []);
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword && inClass) {
        const parent = classesOf([file]).get(inClass)?.parent;
        if (parent && refusals.has(inClass)) check(file, node, parent, node.arguments);
      }
      ts.forEachChild(node, (child) => visit(child, inClass));
    };
    visit(file);
  }
  return { findings, checked, classes: [...refusals.keys()].sort() };
}

const parse = (fileName: string, text: string) =>
  ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);

describe('refusal codes', () => {
  it('every refusal in apps/api/src is thrown with a code', () => {
    const files = sourceFiles(SRC).map((path) => parse(relative(SRC, path), readFileSync(path, 'utf8')));
    const { findings, checked, classes } = uncoded(files);
    // the check found the refusal classes and their constructions (it cannot pass on an empty walk)
    expect(classes).toEqual(
      expect.arrayContaining(['ConflictError', 'DomainError', 'InvalidDataError', 'NotFoundError']),
    );
    expect(checked).toBeGreaterThan(100);
    expect(findings.map((f) => `${f.file}:${f.line}  ${f.text}`)).toEqual([]);
  });

  it('the check finds a refusal without a code however it is written, and accepts one with a code', () => {
    const errors = parse(
      'errors.ts',
      `export class DomainError extends Error {
         constructor(type: string, message: string, errors?: unknown[], code?: string, params?: object) { super(message); }
       }
       export class NotFoundError extends DomainError {
         constructor(message = 'Not found', code?: string) { super('NOT_FOUND', message, undefined, code); }
       }
       export class GoneError extends NotFoundError {}
       export class FixedError extends DomainError {
         constructor(message: string) { super('UNAVAILABLE', message, undefined, 'SERVICE_UNAVAILABLE'); }
       }
       export class ForgetfulError extends DomainError {
         constructor(message: string) { super('UNAVAILABLE', message); }
       }`,
    );
    const use = parse(
      'use.ts',
      `throw new NotFoundError('Order not found');
       const a = new NotFoundError(
         'Order not found',
         'ORDER_NOT_FOUND',
       );
       throw new GoneError('gone');
       throw new DomainError('UNAUTHORIZED', 'Invalid token', undefined, undefined);
       throw new DomainError('UNAUTHORIZED', /* code: */ 'Invalid token');
       throw new FixedError('down');
       const ok = new DomainError('UNAUTHORIZED', 'Invalid token', undefined, 'INVALID_TOKEN');`,
    );
    const { findings } = uncoded([errors, use]);
    expect(findings.map((f) => `${f.file}:${f.line}`)).toEqual([
      'errors.ts:12', // ForgetfulError's super call
      'use.ts:1',
      'use.ts:6',
      'use.ts:7',
      'use.ts:8',
    ]);
  });
});
