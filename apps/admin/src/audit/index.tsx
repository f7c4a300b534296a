import HistoryIcon from '@mui/icons-material/History';
import { lazy } from 'react';

const AuditList = lazy(() => import('./AuditList').then((m) => ({ default: m.AuditList })));

export default { list: AuditList, icon: HistoryIcon };
