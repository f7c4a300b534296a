/** The catalogue's public view of a product, for every module that shows products (never the schema). */
export { toProductView } from './schemas/product.schema';
