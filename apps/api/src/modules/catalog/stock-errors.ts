import { ConflictError } from '../../common/errors/domain-error';

/** The messages a customer sees when a line is short of stock; the cart and orders use the same wording. */
export function outOfStockMessage(name: string): string {
  return `${name} is out of stock`;
}
export function onlyLeftMessage(name: string, stock: number, inCart = 0): string {
  const base = `Only ${stock} left in stock for ${name}`;
  return inCart > 0 ? `${base} (you already have ${inCart} in your cart)` : base;
}

/** A line short of stock (409), coded so that a storefront can say it in its own language. */
export function shortOfStock(name: string, stock: number, inCart = 0): ConflictError {
  if (stock <= 0)
    return new ConflictError(outOfStockMessage(name), 'OUT_OF_STOCK', { product: name, available: 0 });
  return new ConflictError(onlyLeftMessage(name, stock, inCart), 'INSUFFICIENT_STOCK', {
    product: name,
    available: stock,
    inCart,
  });
}
