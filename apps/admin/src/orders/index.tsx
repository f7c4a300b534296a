import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { OrderList } from './OrderList';
import { OrderShow } from './OrderShow';

/** Details live at /admin/orders/{id} (the SPEC route), which is react-admin's edit route of the resource. */
export default { list: OrderList, edit: OrderShow, icon: ShoppingCartIcon };
