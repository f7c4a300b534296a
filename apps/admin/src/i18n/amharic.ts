import { auth, recover } from '@shop/i18n/src/account.am.json';
import { admin, outbox } from '@shop/i18n/src/admin.am.json';
import { errors } from '@shop/i18n/src/am.json';
import { reactAdminAm } from '@shop/i18n/src/react-admin.am';
import { toPolyglot, type Tree } from './tree';

/**
 * The back office in Amharic: a chunk of its own, loaded only when Amharic is chosen (i18nProvider.ts), and
 * complete without the English texts underneath: every English key has its Amharic text (libs/i18n's
 * tests and dictionary.test.ts check it), so the English fallback of docs/product.md §1 is met ahead of time
 * and an Amharic user downloads no English (docs/decisions/0088-back-office-within-budget.md).
 */
export const amharic = {
  ...reactAdminAm,
  shop: toPolyglot({ admin, outbox, errors, auth, recover }),
} as unknown as Tree;
