import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenInView } from './when-in-view';

/** A stand-in observer: the test says when the place comes into view. */
function fakeObserver() {
  const seen: { cb: IntersectionObserverCallback; targets: Element[]; off: boolean }[] = [];
  class Fake {
    private readonly entry: (typeof seen)[number];
    constructor(cb: IntersectionObserverCallback) {
      this.entry = { cb, targets: [], off: false };
      seen.push(this.entry);
    }
    observe(el: Element) {
      this.entry.targets.push(el);
    }
    disconnect() {
      this.entry.off = true;
    }
  }
  vi.stubGlobal('IntersectionObserver', Fake);
  const show = (isIntersecting: boolean) =>
    act(() => {
      for (const o of seen.filter((x) => !x.off)) {
        o.cb(
          o.targets.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
          o as unknown as IntersectionObserver,
        );
      }
    });
  return { show, observers: seen };
}

describe('WhenInView', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('holds the place until it comes near the screen, then renders and stays', async () => {
    const io = fakeObserver();
    const { container } = render(
      <WhenInView height={280}>
        <p>chart</p>
      </WhenInView>,
    );
    expect(screen.queryByText('chart')).toBeNull();
    expect((container.firstChild as HTMLElement).style.height).toBe('280px');
    await io.show(false);
    expect(screen.queryByText('chart')).toBeNull();
    await io.show(true);
    expect(screen.getByText('chart')).toBeTruthy();
    expect(io.observers.every((o) => o.off)).toBe(true);
  });

  it('renders at once where the browser has no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <WhenInView height={280}>
        <p>chart</p>
      </WhenInView>,
    );
    expect(screen.getByText('chart')).toBeTruthy();
  });
});
