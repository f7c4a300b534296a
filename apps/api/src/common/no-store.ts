import type { NextFunction, Request, Response } from 'express';

/**
 * Answers about one person (sessions, cart, wishlist, orders, profile, payments) and everything of
 * the back office: never stored by a browser or shared cache, whether the answer is a success, a
 * 401 or a guest's empty cart. Guarded routes also set it (JwtAuthGuard); this covers the rest.
 */
const PERSONAL = /^\/api\/(auth|cart|wishlist|orders|users|admin|payments)(\/|$)/;

export function personalNoStore(req: Request, res: Response, next: NextFunction): void {
  if (PERSONAL.test(req.path)) res.setHeader('Cache-Control', 'no-store');
  next();
}
