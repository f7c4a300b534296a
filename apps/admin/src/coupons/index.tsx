import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import { lazy } from 'react';

const CouponList = lazy(() => import('./CouponList').then((m) => ({ default: m.CouponList })));
const CouponCreate = lazy(() => import('./CouponForm').then((m) => ({ default: m.CouponCreate })));
const CouponEdit = lazy(() => import('./CouponForm').then((m) => ({ default: m.CouponEdit })));

/** Coupon codes (docs/decisions/0096-coupon-codes.md): list with uses, create, edit, deactivate. */
export default { list: CouponList, create: CouponCreate, edit: CouponEdit, icon: ConfirmationNumberIcon };
