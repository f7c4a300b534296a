import { auth, recover } from '@shop/i18n/src/account.am.json';
import { admin, outbox } from '@shop/i18n/src/admin.am.json';
import { errors } from '@shop/i18n/src/am.json';
import { reactAdminAm } from '@shop/i18n/src/react-admin.am';
import { english } from './english';
import { toPolyglot, withFallback, type Tree } from './tree';

/**
 * The back office in Amharic over the English texts (a missing one falls back): a chunk of its own, loaded
 * only when Amharic is chosen (i18nProvider.ts).
 */
export const amharic = withFallback(english, {
  ...reactAdminAm,
  shop: toPolyglot({ admin, outbox, errors, auth, recover }),
} as unknown as Tree);
