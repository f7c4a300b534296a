/** /shop is the same listing as /products (docs/product.md §2; the hero's call-to-action goes here). */
export { loader, meta, default } from './products';
