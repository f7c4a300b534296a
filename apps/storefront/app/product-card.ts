import type { Product, ProductList } from '@shop/api-client';

/** What a card shows of a product: the lists of home and the catalogue send their pages only this (cardOf). */
export type CardProduct = Pick<
  Product,
  | '_id'
  | 'name'
  | 'nameAm'
  | 'brand'
  | 'images'
  | 'stock'
  | 'discount'
  | 'rating'
  | 'reviewCount'
  | 'price'
  | 'originalPrice'
  | 'promotion'
>;

/**
 * A product as its card needs it (on the server, in the loaders of the pages that list products): the rest
 * of a product (descriptions, ingredients, benefits in two languages, further photos, dates) was 60% of the
 * catalogue page's data, serialised into every page, sent to every phone and parsed again to hydrate.
 */
export function cardOf(product: Product): CardProduct {
  return {
    _id: product._id,
    name: product.name,
    nameAm: product.nameAm,
    brand: product.brand,
    // a card shows the first photo only
    images: product.images.slice(0, 1),
    stock: product.stock,
    discount: product.discount,
    rating: product.rating,
    reviewCount: product.reviewCount,
    price: product.price,
    originalPrice: product.originalPrice,
    promotion: product.promotion,
  };
}

/** A list of products with its products as cards (home's shelves, the catalogue's page). */
export type CardList = Omit<ProductList, 'products'> & { products: CardProduct[] };

export function cardListOf(list: ProductList): CardList {
  return { ...list, products: list.products.map(cardOf) };
}
