import {
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import { PALETTES } from './theme-palettes';

// Text reaches WCAG 2.2 AA contrast (4.5:1) on every background it is drawn on (issue 23 item
// 12, ADR 0073). Mantine's defaults draw text in shade 6 (blue 3.56:1 on white, teal 2.55:1) and
// dimmed text in gray 6 (3.32:1): the colours below are the first shade, or shade 9 darkened by
// steps, that reaches the target, worked out once from the palettes.

/** The level every text colour here reaches: AA for normal text, with a margin for rounding. */
export const MIN_CONTRAST = 4.6;

/** The shade of the primary colour, of filled buttons and of links (blue 8: 5.02:1 on white). */
export const PRIMARY_SHADE = 8;

/** Secondary text (Mantine's `dimmed`): 5.58:1 on white, 5.29:1 on the page's gray 0. */
export const DIMMED = '#616970';

const WHITE = '#ffffff';
const BLACK = '#000000';
/** The signed-in screens' page background (AppShell.Main, gray 0). */
const PAGE = DEFAULT_THEME.colors.gray[0];

type Rgb = readonly [number, number, number];

const rgb = (hex: string): Rgb => {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as unknown as Rgb;
};
const toHex = (c: Rgb): string => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** `fg` at `opacity` over `bg` (Mantine's light variant: the colour at 10 % over the page). */
export const over = (fg: string, opacity: number, bg: string): string => {
  const f = rgb(fg);
  const b = rgb(bg);
  return toHex(f.map((v, i) => Math.round(v * opacity + b[i]! * (1 - opacity))) as unknown as Rgb);
};

const darken = (hex: string, by: number): string =>
  toHex(rgb(hex).map((v) => Math.round(v * (1 - by))) as unknown as Rgb);

const luminance = (hex: string): number => {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** WCAG 2.x contrast ratio of two opaque colours (#rrggbb). */
export const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** Mantine's shades 6 to 9, then shade 9 darkened by 10 % steps: the lightest readable wins. */
const candidates = (tuple: MantineColorsTuple): string[] => [
  tuple[6],
  tuple[7],
  tuple[8],
  tuple[9],
  ...[0.1, 0.2, 0.3, 0.4, 0.5].map((by) => darken(tuple[9], by)),
];

/** The first colour of `list` that reaches MIN_CONTRAST against every background. */
const firstReadable = (list: string[], backgrounds: string[]): string =>
  list.find((c) => backgrounds.every((bg) => contrast(c, bg) >= MIN_CONTRAST)) ?? BLACK;

export type PaletteColors = {
  /** Text in the colour (`c="teal"`, the outline variant) on white or the page's gray 0. */
  text: string;
  /** Background of the filled variant (and a darker one on hover), and the text on it (white, or
   * black on light hues). */
  filled: string;
  filledHover: string;
  filledText: string;
  /** The light variant: the tint (shade 8 at 10 %) and the text drawn on it. */
  light: string;
  lightText: string;
};

export const paletteColors = (tuple: MantineColorsTuple): PaletteColors => {
  const text = firstReadable(candidates(tuple), [WHITE, PAGE]);
  const tint = tuple[PRIMARY_SHADE];
  const lightText = firstReadable(candidates(tuple), [
    over(tint, 0.1, WHITE),
    over(tint, 0.1, PAGE),
  ]);
  // White on the lightest of shades 6 to 9 that carries it; a light hue (yellow, lime, orange,
  // green) keeps shade 8 and takes black text, as Mantine's autoContrast would.
  const filledWhite = [tuple[6], tuple[7], tuple[8], tuple[9]].find(
    (c) => contrast(WHITE, c) >= MIN_CONTRAST,
  );
  const filled = filledWhite ?? tint;
  return {
    text,
    filled,
    filledHover: darken(filled, 0.12),
    filledText: filledWhite ? WHITE : BLACK,
    light: tint,
    lightText,
  };
};

/** Every palette's colours, worked out ahead (theme-palettes.ts; the test holds them equal). */
export { PALETTES };

/**
 * The filled variant of a palette colour (`color="teal"`) writes in the colour readable on it:
 * white, or black on a light hue; an explicit shade (`blue.2`) or a CSS colour is left as asked.
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled') return base;
  const parsed = parseThemeColor({
    color: input.color ?? input.theme.primaryColor,
    theme: input.theme,
  });
  const p = parsed.isThemeColor && parsed.shade === undefined ? PALETTES[parsed.color] : undefined;
  return p ? { ...base, color: p.filledText } : base;
};

/**
 * The light scheme's colour variables, read by every component: text in a colour
 * (`c="red"`, `--mantine-color-red-text`), the filled, light and outline variants, links,
 * dimmed text and error messages.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-anchor': PALETTES.blue!.text,
    '--mantine-color-error': PALETTES.red!.text,
    ...Object.fromEntries(
      Object.entries(PALETTES).flatMap(([name, p]) => [
        [`--mantine-color-${name}-text`, p.text],
        [`--mantine-color-${name}-filled`, p.filled],
        [`--mantine-color-${name}-filled-hover`, p.filledHover],
        [`--mantine-color-${name}-light-color`, p.lightText],
        [`--mantine-color-${name}-outline`, p.text],
      ]),
    ),
  },
  dark: {},
});
