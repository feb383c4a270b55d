import type { ReviewFigures } from '@tenpo/domain';
import { METRIC_COLORS } from './chart-colors';

const W = 320;
const H = 72;
const PAD = 4;

/**
 * The dashboard card's small trend: new reviews a day as bars, the average held as a line on a
 * ★1–★5 scale. Drawn as SVG, without Chart.js: the card sits on the dashboard's first screen
 * (ADR 0079's addendum).
 */
export function ReviewTrend({
  series,
  label,
}: {
  series: Record<string, ReviewFigures>;
  label: string;
}) {
  const days = Object.keys(series).sort();
  if (days.length === 0) return null;
  const figures = days.map((d) => series[d] as ReviewFigures);
  const maxCount = Math.max(1, ...figures.map((f) => f.review_count));
  const step = (W - 2 * PAD) / days.length;
  const x = (i: number) => PAD + step * i + step / 2;
  const y = (rating: number) => PAD + ((5 - rating) / 4) * (H - 2 * PAD);
  const points = figures
    .map((f, i) =>
      f.average_rating === null ? null : `${x(i).toFixed(1)},${y(f.average_rating).toFixed(1)}`,
    )
    .filter((p): p is string => p !== null);
  const summary = `${label}: ${days
    .map((d, i) => `${d.slice(5)} ${figures[i]?.review_count ?? 0}`)
    .join(', ')}`;
  return (
    <svg
      role="img"
      aria-label={summary}
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      height={H}
      preserveAspectRatio="none"
      data-testid="reviews-trend-chart"
    >
      {figures.map((f, i) =>
        f.review_count === 0 ? null : (
          <rect
            key={days[i]}
            x={x(i) - Math.max(1, step * 0.3)}
            width={Math.max(2, step * 0.6)}
            y={H - PAD - ((H - 2 * PAD) * f.review_count) / maxCount}
            height={((H - 2 * PAD) * f.review_count) / maxCount}
            fill={METRIC_COLORS.search_keywords}
            opacity={0.35}
          />
        ),
      )}
      {points.length > 1 && (
        <polyline
          points={points.join(' ')}
          fill="none"
          stroke="#f59f00"
          strokeWidth={2}
          vectorEffect="non-scaling-stroke"
        />
      )}
    </svg>
  );
}
