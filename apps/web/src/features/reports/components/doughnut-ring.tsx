/**
 * A doughnut chart as SVG: one ring segment per value, clockwise from the top, as Chart.js draws
 * its doughnut (cutout 80 %). The dashboard's only chart in a phone's first screen; Chart.js took
 * about 60 ms of main thread to build its first chart there (ADR 0079's addendum), this takes
 * none worth measuring. The figures are in the legend and the centre beside it: the ring is an
 * image with a name, and pointing at (or tapping) a segment shows that segment's figure in the
 * centre, as the Chart.js version's hover did.
 */
export type RingSegment = { value: number; color: string; label: string };

/** The ring's outer radius and width, in viewBox units (100 × 100): 80 % cutout. */
const OUTER = 48;
const WIDTH = OUTER * 0.2;
const RADIUS = OUTER - WIDTH / 2;
/** A pointed segment grows outwards by this much (Chart.js's `hoverOffset: 4` at ~220 px). */
const GROW = 1.8;

/** Each segment's length along the ring and where it starts, both as fractions of a turn. */
export const ringArcs = (values: number[]): { start: number; share: number }[] => {
  const total = values.reduce((a, b) => a + Math.max(0, b), 0);
  let start = 0;
  return values.map((v) => {
    const share = total > 0 ? Math.max(0, v) / total : 0;
    const arc = { start, share };
    start += share;
    return arc;
  });
};

export function DoughnutRing({
  segments,
  label,
  active,
  onActive,
}: {
  segments: RingSegment[];
  label: string;
  active: number | null;
  onActive: (index: number | null) => void;
}) {
  const arcs = ringArcs(segments.map((s) => s.value));
  return (
    <svg
      viewBox="0 0 100 100"
      width="100%"
      height="100%"
      role="img"
      aria-label={label}
      data-testid="doughnut-ring"
      onMouseLeave={() => onActive(null)}
    >
      {/* A turn starts at three o'clock; the chart starts at twelve. */}
      <g transform="rotate(-90 50 50)">
        {segments.map((s, i) => {
          const arc = arcs[i]!;
          if (arc.share === 0) return null;
          const on = active === i;
          const r = on ? RADIUS + GROW / 2 : RADIUS;
          const c = 2 * Math.PI * r;
          return (
            <circle
              key={s.label}
              cx={50}
              cy={50}
              r={r}
              fill="none"
              stroke={s.color}
              strokeWidth={on ? WIDTH + GROW : WIDTH}
              strokeDasharray={`${arc.share * c} ${c}`}
              strokeDashoffset={-arc.start * c}
              data-share={arc.share.toFixed(4)}
              onMouseEnter={() => onActive(i)}
            />
          );
        })}
      </g>
    </svg>
  );
}
