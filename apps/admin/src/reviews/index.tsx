import RateReviewIcon from '@mui/icons-material/RateReview';
import { ReviewList } from './ReviewList';

export default { list: ReviewList, icon: RateReviewIcon };
