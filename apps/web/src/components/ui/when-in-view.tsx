import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders `children` once its place comes near the screen, and keeps them from then on; until
 * then a box of `height` holds the place, so nothing moves when they arrive. For what is costly
 * to draw and often out of sight: on a phone, /dashboard's charts lie below its six figures, and
 * building them at load blocked the main thread for seconds at a phone's CPU (issue 23 item 5).
 * Without IntersectionObserver (old browsers, jsdom) the children render at once.
 */
export function WhenInView({ height, children }: { height: number | string; children: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = place.current;
    if (seen || !el) return;
    const watch = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: '100px 0px' },
    );
    watch.observe(el);
    return () => watch.disconnect();
  }, [seen]);
  if (seen) return <>{children}</>;
  return <div ref={place} style={{ height }} aria-hidden="true" />;
}
