import Inventory2Icon from '@mui/icons-material/Inventory2';
import { ProductList } from './ProductList';

/** Create and edit happen in a modal on the list ('Add new product'), so the resource has a list only. */
export default { list: ProductList, icon: Inventory2Icon };
