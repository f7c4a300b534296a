/** /shop is the same listing as /products (SPEC section 2; the hero's call-to-action goes here). */
export { loader, meta, default } from './products';
