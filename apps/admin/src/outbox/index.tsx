import MailIcon from '@mui/icons-material/Mail';
import OutboxIcon from '@mui/icons-material/Outbox';
import SmsIcon from '@mui/icons-material/Sms';
import { lazy } from 'react';

const OutboxList = lazy(() => import('./OutboxList').then((m) => ({ default: m.OutboxList })));
const MailList = lazy(() => import('./MailList').then((m) => ({ default: m.MailList })));
const SmsList = lazy(() => import('./SmsList').then((m) => ({ default: m.SmsList })));

export const outbox = { list: OutboxList, icon: OutboxIcon };
export const mails = { list: MailList, icon: MailIcon };
export const sms = { list: SmsList, icon: SmsIcon };
