import Inventory2Icon from '@mui/icons-material/Inventory2';
import { lazy } from 'react';

const ProductList = lazy(() => import('./ProductList').then((m) => ({ default: m.ProductList })));

/** Create and edit happen in a modal on the list ('Add new product'), so the resource has a list only. */
export default { list: ProductList, icon: Inventory2Icon };
