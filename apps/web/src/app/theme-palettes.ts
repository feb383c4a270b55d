import type { PaletteColors } from './theme-colors';

/**
 * Every Mantine palette's readable colours (theme-colors.ts's `paletteColors`), written out so that
 * the first load does not work them out again (ADR 0079's addendum); `theme-colors.test.ts` holds
 * this equal to the computation. To refresh it, print `paletteColors` of each
 * `DEFAULT_THEME.colors` entry and paste the result.
 */
export const PALETTES: Record<string, PaletteColors> = {
  dark: {
    text: '#2e2e2e',
    filled: '#2e2e2e',
    filledHover: '#282828',
    filledText: '#ffffff',
    light: '#1f1f1f',
    lightText: '#2e2e2e',
  },
  gray: {
    text: '#495057',
    filled: '#495057',
    filledHover: '#40464d',
    filledText: '#ffffff',
    light: '#343a40',
    lightText: '#495057',
  },
  red: {
    text: '#c92a2a',
    filled: '#c92a2a',
    filledHover: '#b12525',
    filledText: '#ffffff',
    light: '#e03131',
    lightText: '#b52626',
  },
  pink: {
    text: '#c2255c',
    filled: '#d6336c',
    filledHover: '#bc2d5f',
    filledText: '#ffffff',
    light: '#c2255c',
    lightText: '#c2255c',
  },
  grape: {
    text: '#9c36b5',
    filled: '#ae3ec9',
    filledHover: '#9937b1',
    filledText: '#ffffff',
    light: '#9c36b5',
    lightText: '#9c36b5',
  },
  violet: {
    text: '#7950f2',
    filled: '#7950f2',
    filledHover: '#6a46d5',
    filledText: '#ffffff',
    light: '#6741d9',
    lightText: '#6741d9',
  },
  indigo: {
    text: '#4263eb',
    filled: '#4263eb',
    filledHover: '#3a57cf',
    filledText: '#ffffff',
    light: '#3b5bdb',
    lightText: '#3b5bdb',
  },
  blue: {
    text: '#1971c2',
    filled: '#1971c2',
    filledHover: '#1663ab',
    filledText: '#ffffff',
    light: '#1971c2',
    lightText: '#1864ab',
  },
  cyan: {
    text: '#0b7285',
    filled: '#0b7285',
    filledHover: '#0a6475',
    filledText: '#ffffff',
    light: '#0c8599',
    lightText: '#0b7285',
  },
  teal: {
    text: '#087f5b',
    filled: '#087f5b',
    filledHover: '#077050',
    filledText: '#ffffff',
    light: '#099268',
    lightText: '#077252',
  },
  green: {
    text: '#277c38',
    filled: '#2f9e44',
    filledHover: '#298b3c',
    filledText: '#000000',
    light: '#2f9e44',
    lightText: '#226e32',
  },
  lime: {
    text: '#4a760a',
    filled: '#66a80f',
    filledHover: '#5a940d',
    filledText: '#000000',
    light: '#66a80f',
    lightText: '#4a760a',
  },
  yellow: {
    text: '#a15300',
    filled: '#f08c00',
    filledHover: '#d37b00',
    filledText: '#000000',
    light: '#f08c00',
    lightText: '#a15300',
  },
  orange: {
    text: '#c3410e',
    filled: '#e8590c',
    filledHover: '#cc4e0b',
    filledText: '#000000',
    light: '#e8590c',
    lightText: '#ae3a0c',
  },
};
