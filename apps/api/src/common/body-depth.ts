import type { NextFunction, Request, Response } from 'express';
import { AllExceptionsFilter } from './filters/all-exceptions.filter';
import { InvalidDataError } from './errors/domain-error';

/** No form or payload of the shop nests anywhere near this deep. */
export const MAX_BODY_DEPTH = 32;

/** Depth of a parsed JSON value, walked without recursion so that a hostile body cannot exhaust the stack. */
export function nestingDepth(value: unknown, limit = MAX_BODY_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Object.values(node as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Refuses bodies nested deeper than MAX_BODY_DEPTH with a 400 before validation walks them
 * (class-validator and class-transformer recurse, and a small but deep body would overflow the stack).
 */
export function refuseDeepBodies(req: Request, res: Response, next: NextFunction): void {
  if (nestingDepth(req.body) <= MAX_BODY_DEPTH) return next();
  const body = new AllExceptionsFilter().toBody(
    new InvalidDataError('Request body is nested too deeply', undefined, 'BODY_TOO_DEEP'),
  );
  res.status(body.statusCode).json(body);
}
