import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useFormat } from './format';

/** A date column in the chosen language (Ethiopian calendar and hours in Amharic), on the shop clock (settings timezone). */
export function ShopDateField({
  source,
  showTime = false,
}: {
  source: string;
  showTime?: boolean;
  label?: string;
  sortBy?: string;
  sortable?: boolean;
}) {
  const record = useRecordContext();
  const { date, dateTime } = useFormat();
  const value = record?.[source] as string | undefined;
  return (
    <Typography component="span" variant="body2">
      {showTime ? dateTime(value) : date(value)}
    </Typography>
  );
}
