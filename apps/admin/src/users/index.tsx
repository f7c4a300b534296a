import PeopleIcon from '@mui/icons-material/People';
import { lazy } from 'react';

const UserList = lazy(() => import('./UserList').then((m) => ({ default: m.UserList })));

/** Users are created in the 'Add User' modal of the list. */
export default { list: UserList, icon: PeopleIcon };
