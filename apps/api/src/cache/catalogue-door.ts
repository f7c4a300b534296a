import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ListingsService } from '../modules/catalog/listings.service';
import { parseListQuery } from '../modules/catalog/list-query';
import { EarlyDoor } from './early-door';

/**
 * Anonymous reads of the catalogue listing that no kept answer serves are answered before Express
 * and Nest's pipeline: the query string read as the pipeline would (plainly valid queries only, the
 * rest goes to Nest, which validates and refuses), then the catalogue's one listing function
 * (`ListingsService.listJson`, also behind the controller), whose text is the answer.
 */
@Injectable()
export class CatalogueDoor implements OnModuleInit {
  constructor(
    private readonly door: EarlyDoor,
    private readonly listings: ListingsService,
  ) {}

  onModuleInit(): void {
    this.door.answerWith('/api/products', (raw) => this.read(raw));
  }

  /** The listing's JSON for a raw query string, or undefined to leave the request to Nest. */
  read(raw: string): Promise<string | undefined> {
    const query = parseListQuery(raw);
    return query ? this.listings.listJson(query) : Promise.resolve(undefined);
  }
}
