import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DoughnutRing, ringArcs, type RingSegment } from './doughnut-ring';

const SEGMENTS: RingSegment[] = [
  { value: 3000, color: '#1c7ed6', label: 'マップ（PC）' },
  { value: 0, color: '#74c0fc', label: 'マップ（モバイル）' },
  { value: 1000, color: '#f08c00', label: '検索（PC）' },
  { value: 4000, color: '#ffc078', label: '検索（モバイル）' },
];

function Pointed() {
  const [active, setActive] = useState<number | null>(null);
  return (
    <>
      <DoughnutRing segments={SEGMENTS} label="検索の内訳" active={active} onActive={setActive} />
      <p data-testid="pointed">{active === null ? '-' : SEGMENTS[active]!.label}</p>
    </>
  );
}

describe('DoughnutRing', () => {
  it('gives each value its share of the turn, in order from the top', () => {
    expect(ringArcs([3000, 0, 1000, 4000])).toEqual([
      { start: 0, share: 0.375 },
      { start: 0.375, share: 0 },
      { start: 0.375, share: 0.125 },
      { start: 0.5, share: 0.5 },
    ]);
    expect(ringArcs([0, 0])).toEqual([
      { start: 0, share: 0 },
      { start: 0, share: 0 },
    ]);
  });

  it('is a named image with a segment per non-zero value, pointing shows it', () => {
    render(<Pointed />);
    const ring = screen.getByRole('img', { name: '検索の内訳' });
    const circles = ring.querySelectorAll('circle');
    expect([...circles].map((c) => c.getAttribute('data-share'))).toEqual([
      '0.3750',
      '0.1250',
      '0.5000',
    ]);
    expect(screen.getByTestId('pointed')).toHaveTextContent('-');
    fireEvent.mouseEnter(circles[2]!);
    expect(screen.getByTestId('pointed')).toHaveTextContent('検索（モバイル）');
    // The pointed segment is drawn wider; leaving the ring shows the total again.
    expect(Number(circles[2]!.getAttribute('stroke-width'))).toBeGreaterThan(
      Number(circles[0]!.getAttribute('stroke-width')),
    );
    fireEvent.mouseLeave(ring);
    expect(screen.getByTestId('pointed')).toHaveTextContent('-');
  });
});
