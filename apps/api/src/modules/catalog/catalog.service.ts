import { Injectable } from '@nestjs/common';
import type { ClientSession, Types } from 'mongoose';
import type {
  CatalogProduct,
  ProductChangeListener,
  RatingStats,
  Reservation,
  StockLine,
} from './catalog.types';
import { ListingsService } from './listings.service';
import { ProductsService } from './products.service';
import { StockService } from './stock.service';

export * from './catalog.types';

/**
 * The catalogue as other modules reach it (cart, orders, wishlist, reviews, the dashboard): each
 * call is one of the three services of one concern inside the module, which the catalogue's own
 * controllers use directly: `ProductsService` (reading and editing products), `StockService`
 * (reservations, releases, price and stock change listeners, low stock) and `ListingsService` (the
 * public listing, categories, counts).
 */
@Injectable()
export class CatalogService {
  constructor(
    private readonly products: ProductsService,
    private readonly stock: StockService,
    private readonly listings: ListingsService,
  ) {}

  /** The raw active product; 404 "Product not found" otherwise (`ProductsService.activeProduct`). */
  activeProduct(id: string) {
    return this.products.activeProduct(id);
  }

  /** Products by id in any state (`ProductsService.productsByIds`). */
  productsByIds(ids: readonly (Types.ObjectId | string)[], projection?: Record<string, 0 | 1>) {
    return this.products.productsByIds(ids, projection);
  }

  /** One product in any state, or null. */
  productById(id: Types.ObjectId | string): Promise<CatalogProduct | null> {
    return this.products.productById(id);
  }

  /** Products by id as read moments ago where known, for answers only (`ProductsService.recentProductsByIds`). */
  recentProductsByIds(ids: readonly Types.ObjectId[], readNow?: Set<string>) {
    return this.products.recentProductsByIds(ids, readNow);
  }

  /** Products by id read now (`ProductsService.freshProductsByIds`). */
  freshProductsByIds(ids: readonly Types.ObjectId[]) {
    return this.products.freshProductsByIds(ids);
  }

  /** Sets a product's rating and review count from the reviews module's figures. */
  recomputeRating(
    productId: Types.ObjectId | string,
    stats: RatingStats | undefined,
    options?: { touch?: boolean },
  ) {
    return this.products.recomputeRating(productId, stats, options);
  }

  /** Reserves every line inside the caller's transaction (`StockService.reserveStock`). */
  reserveStock(lines: readonly StockLine[], session: ClientSession): Promise<Reservation[]> {
    return this.stock.reserveStock(lines, session);
  }

  /** Gives reserved stock back inside the caller's transaction (`StockService.releaseStock`). */
  releaseStock(lines: readonly StockLine[], session: ClientSession, cause: string): Promise<void> {
    return this.stock.releaseStock(lines, session, cause);
  }

  /** Registers a listener told of every price or stock change inside its transaction. */
  onProductChange(listener: ProductChangeListener): () => void {
    return this.stock.onProductChange(listener);
  }

  /** Products on sale at or below the low-stock threshold, fewest first. */
  lowStock(limit: number) {
    return this.stock.lowStock(limit);
  }

  /** Products on sale. */
  countActive(): Promise<number> {
    return this.listings.countActive();
  }
}
