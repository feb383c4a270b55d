import { createTheme } from '@mantine/core';
import { PRIMARY_SHADE, variantColorResolver } from './theme-colors';

/**
 * The theme without its components' defaults: all that Mantine's CSS variables are made from.
 * The build reads it (vite.config.ts, css-variables.ts), so it imports nothing of the app's
 * texts; `theme.ts` adds the components.
 */
export const themeBase = createTheme({
  primaryColor: 'blue',
  // Text, links and buttons reach WCAG AA contrast (ADR 0073).
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  variantColorResolver,
  fontFamily:
    '"Hiragino Kaku Gothic ProN", "Hiragino Sans", "Noto Sans JP", "Noto Sans CJK JP", Meiryo, system-ui, sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  // Modals, menus and the side bar animate (spec 1 §9), unless the user asked for less motion.
  respectReducedMotion: true,
});
