/** Axis labels in thousands with one decimal: 1500 -> '1.5k'. */
export const thousands = (value: number) => `${(value / 1000).toFixed(1)}k`;

/** Rounds the top of the axis up to a tidy step so the grid lines land on readable values. */
export function axisMax(max: number): number {
  if (max <= 0) return 1000;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil(max / step) * step;
}

/** Dot colour of a recent-activity row: green delivered, yellow pending, grey otherwise. */
export function activityColor(status?: string): string {
  if (status === 'delivered') return '#2e7d32';
  if (status === 'pending') return '#f9a825';
  return '#9e9e9e';
}
