import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { lazy } from 'react';

const PromotionList = lazy(() => import('./PromotionList').then((m) => ({ default: m.PromotionList })));
const PromotionCreate = lazy(() => import('./PromotionForm').then((m) => ({ default: m.PromotionCreate })));
const PromotionEdit = lazy(() => import('./PromotionForm').then((m) => ({ default: m.PromotionEdit })));

/** Scheduled sales (docs/decisions/0095): list, create, edit (pause with the active switch). */
export default { list: PromotionList, create: PromotionCreate, edit: PromotionEdit, icon: LocalOfferIcon };
