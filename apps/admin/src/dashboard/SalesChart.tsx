import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { SalesDay } from '../shopApi';
import { FONT_FAMILY } from '../theme';
import { axisMax, thousands } from './chartScale';

export const CHART_HEIGHT = 260;

/** 'Sales (last 7 days)': a small hand-drawn SVG line chart (no chart library in the bundle). */
export function SalesChart({ data }: { data: SalesDay[] }) {
  const t = useTranslate();
  if (!data.length || data.every((d) => !d.totalSales)) {
    return (
      <Typography color="text.secondary" sx={{ height: CHART_HEIGHT, display: 'grid', placeItems: 'center' }}>
        {t('shop.admin.dashboard.noSales')}
      </Typography>
    );
  }
  const width = 600;
  const pad = { left: 48, right: 16, top: 12, bottom: 28 };
  const top = axisMax(Math.max(...data.map((d) => d.totalSales)));
  const plotW = width - pad.left - pad.right;
  const plotH = CHART_HEIGHT - pad.top - pad.bottom;
  const x = (i: number) => pad.left + (data.length === 1 ? plotW / 2 : (i * plotW) / (data.length - 1));
  const y = (v: number) => pad.top + plotH - (v / top) * plotH;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const path = data
    .map((d, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(d.totalSales).toFixed(1)}`)
    .join(' ');
  return (
    <svg
      role="img"
      aria-label={t('shop.admin.dashboard.salesChart')}
      data-testid="sales-chart"
      viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
      width="100%"
      height={CHART_HEIGHT}
      preserveAspectRatio="none"
      fontFamily={FONT_FAMILY}
    >
      {ticks.map((v) => (
        <g key={v}>
          <line
            x1={pad.left}
            x2={width - pad.right}
            y1={y(v)}
            y2={y(v)}
            stroke="#e0e0e0"
            strokeDasharray="3 3"
          />
          <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="#666">
            {thousands(v)}
          </text>
        </g>
      ))}
      {data.map((d, i) => (
        <text key={d._id} x={x(i)} y={CHART_HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#666">
          {d._id.slice(5)}
        </text>
      ))}
      <path d={path} fill="none" stroke="#8e24aa" strokeWidth="2.5" />
      {data.map((d, i) => (
        <circle key={d._id} cx={x(i)} cy={y(d.totalSales)} r="3.5" fill="#8e24aa">
          <title>{`${d._id}: ${d.totalSales.toFixed(2)}`}</title>
        </circle>
      ))}
    </svg>
  );
}
