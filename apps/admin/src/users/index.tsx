import PeopleIcon from '@mui/icons-material/People';
import { UserList } from './UserList';

/** Users are created in the 'Add User' modal of the list. */
export default { list: UserList, icon: PeopleIcon };
