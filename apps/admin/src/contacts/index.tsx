import MailIcon from '@mui/icons-material/Mail';
import { lazy } from 'react';

const ContactList = lazy(() => import('./ContactList').then((m) => ({ default: m.ContactList })));

/** Messages open in a detail modal of the list. */
export default { list: ContactList, icon: MailIcon };
