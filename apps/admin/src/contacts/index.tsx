import MailIcon from '@mui/icons-material/Mail';
import { ContactList } from './ContactList';

/** Messages open in a detail modal of the list. */
export default { list: ContactList, icon: MailIcon };
