import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { DIMMED, MIN_CONTRAST, PALETTES, contrast, over, paletteColors } from './theme-colors';

const WHITE = '#ffffff';
const { gray } = DEFAULT_THEME.colors;

describe('theme colours (ADR 0073)', () => {
  it('computes the WCAG ratio', () => {
    expect(contrast('#000000', WHITE)).toBeCloseTo(21, 5);
    expect(contrast('#228be6', WHITE)).toBeCloseTo(3.55, 1);
  });

  it('draws dimmed text at AA on white and the page gray', () => {
    for (const bg of [WHITE, gray[0], gray[1]]) {
      expect(contrast(DIMMED, bg)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });

  it('writes out exactly what paletteColors works out for every Mantine palette', () => {
    const computed = Object.fromEntries(
      Object.entries(DEFAULT_THEME.colors).map(([name, tuple]) => [name, paletteColors(tuple)]),
    );
    expect(PALETTES).toEqual(computed);
  });

  it.each(Object.entries(PALETTES))('keeps %s readable in every variant', (_, p) => {
    for (const bg of [WHITE, gray[0]]) {
      expect(contrast(p.text, bg)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
    expect(contrast(p.filledText, p.filled)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    for (const bg of [WHITE, gray[0]]) {
      expect(contrast(p.lightText, over(p.light, 0.1, bg))).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });

  it('keeps the hues close to Mantine’s: the lightest readable shade', () => {
    const { blue, red, teal } = DEFAULT_THEME.colors;
    expect(PALETTES.blue).toMatchObject({ filled: blue[8], text: blue[8], filledText: WHITE });
    expect(PALETTES.teal).toMatchObject({ filled: teal[9], text: teal[9], filledText: WHITE });
    expect(PALETTES.red).toMatchObject({ filled: red[9], text: red[9] });
    // Yellow never carries white text: it keeps its hue and writes in black.
    expect(PALETTES.yellow).toMatchObject({ filledText: '#000000' });
  });
});
