import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { lazy } from 'react';

const OrderList = lazy(() => import('./OrderList').then((m) => ({ default: m.OrderList })));
const OrderShow = lazy(() => import('./OrderShow').then((m) => ({ default: m.OrderShow })));

/**
 * Details live at /admin/orders/{id} (the route of docs/product.md §2), which is react-admin's edit route
 * of the resource.
 */
export default { list: OrderList, edit: OrderShow, icon: ShoppingCartIcon };
