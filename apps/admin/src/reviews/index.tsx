import RateReviewIcon from '@mui/icons-material/RateReview';
import { lazy } from 'react';

const ReviewList = lazy(() => import('./ReviewList').then((m) => ({ default: m.ReviewList })));

export default { list: ReviewList, icon: RateReviewIcon };
