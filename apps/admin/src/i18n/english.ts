import { auth, recover } from '@shop/i18n/src/account.en.json';
import { admin, outbox } from '@shop/i18n/src/admin.en.json';
import { errors } from '@shop/i18n/src/en.json';
import englishMessages from 'ra-language-english';
import { toPolyglot, type Tree } from './tree';

/** The back office in English: react-admin's texts and the shop's (ADMIN_NAMESPACES), a chunk of its own (i18nProvider.ts). */
export const english = {
  ...englishMessages,
  shop: toPolyglot({ admin, outbox, errors, auth, recover }),
} as unknown as Tree;
