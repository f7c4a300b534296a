import { offlinePageResponse } from '../offline-page';

/** GET /offline: the shop's offline page in English (app/offline-page.ts; precached by the service worker). */
export const loader = () => offlinePageResponse('en');
