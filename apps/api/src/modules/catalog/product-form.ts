import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidDataError } from '../../common/errors/domain-error';
import { createValidationPipe } from '../../common/validation';
import { ProductInputDto } from './dto/product-input.dto';

/**
 * Fields of a product as the API answers it that a client may send back on save (docs/product.md §5:
 * "a product with an _id is updated") but nobody edits: they are dropped, never written.
 */
export const READ_ONLY_PRODUCT_FIELDS = [
  'id',
  '_id',
  '__v',
  'createdAt',
  'updatedAt',
  'rating',
  'reviewCount',
  'discount',
  // what a customer pays now and the sale running (docs/decisions/0095-sales-and-pricing-rule.md)
  'compareAtPrice',
  'promotion',
  'lastRestockDate',
  'searchTerms',
  // the variant chosen when none is named (docs/decisions/0098-product-variants.md)
  'defaultVariantId',
];

const validation = createValidationPipe();

/**
 * The product form from a body that may be a whole product record: read-only fields dropped, and
 * when `stock` and its mirror `countInStock` disagree, the one that changed wins (the stored stock
 * tells which; without it, countInStock, which the spec's form sets from its stock field).
 */
export async function toProductForm(body: unknown, storedStock?: number): Promise<ProductInputDto> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidDataError('Validation failed', undefined, 'VALIDATION_FAILED');
  const data: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const key of READ_ONLY_PRODUCT_FIELDS) delete data[key];
  if (data.stock !== undefined && data.countInStock !== undefined && data.stock !== data.countInStock) {
    if (storedStock === undefined || data.stock === storedStock) data.stock = data.countInStock;
  }
  if (data.stock !== undefined) delete data.countInStock;
  return (await validation.transform(data, { type: 'body', metatype: ProductInputDto })) as ProductInputDto;
}

/**
 * The parameter type of routes that take the form through ProductFormPipe: a mapped type, so the
 * global ValidationPipe sees no class to validate and the read-only fields reach the pipe.
 */
export type ProductForm = Readonly<ProductInputDto>;

/** `@Body(ProductFormPipe)`: the product form rules on a body that may carry read-only fields. */
@Injectable()
export class ProductFormPipe implements PipeTransform<unknown, Promise<ProductInputDto>> {
  transform(body: unknown): Promise<ProductInputDto> {
    return toProductForm(body);
  }
}

/**
 * A whole product record as react-admin sends it back on save: an object whose read-only fields are
 * dropped; ProductsService.updateProductRecord applies the form rules once it knows the stored stock.
 */
export type ProductRecord = Readonly<Partial<ProductInputDto>>;

/** `@Body(ProductRecordPipe)`: refuses anything but a JSON object (400) and drops the read-only fields. */
@Injectable()
export class ProductRecordPipe implements PipeTransform<unknown, ProductRecord> {
  transform(body: unknown): ProductRecord {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new InvalidDataError('Validation failed', undefined, 'VALIDATION_FAILED');
    const data: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    for (const key of READ_ONLY_PRODUCT_FIELDS) delete data[key];
    return data as ProductRecord;
  }
}
