import { offlinePageResponse } from '../offline-page';

/** GET /am/offline: the shop's offline page in Amharic (app/offline-page.ts; precached by the service worker). */
export const loader = () => offlinePageResponse('am');
