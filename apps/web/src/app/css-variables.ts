import {
  DEFAULT_THEME,
  convertCssVariables,
  deepMerge,
  defaultCssVariablesResolver,
  keys,
  mergeMantineTheme,
  type ConvertCSSVariablesInput,
} from '@mantine/core';
import { themeBase } from './theme-base';
import { cssVariablesResolver } from './theme-colors';

/**
 * The stylesheet of the theme's CSS variables, as Mantine's provider would write it into the
 * page (`MantineCssVariables` with its defaults: only the variables that differ from Mantine's
 * own, which `@mantine/core/styles.css` already declares, on `:root` and `:host`).
 *
 * Made from `themeBase`: the components' defaults that `theme` adds make no variable. The
 * provider works these out in the page on each of its renders, about 20 ms a render on a
 * mid-range phone during the first load; the build writes them into the stylesheet instead
 * (vite.config.ts, `virtual:theme-css-variables.css`) and the provider is told not to
 * (`withCssVariables={false}`; ADR 0079's addendum). `css-variables.test.tsx` holds this equal
 * to what the provider renders, so that a change of theme or of Mantine cannot drift from it.
 */
export function themeCssVariables(): string {
  const merged = mergeMantineTheme(DEFAULT_THEME, themeBase);
  const all = deepMerge(
    defaultCssVariablesResolver(merged),
    cssVariablesResolver(merged),
  ) as ConvertCSSVariablesInput;
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  const changed = (scope: 'variables' | 'light' | 'dark') => {
    const out: ConvertCSSVariablesInput[typeof scope] = {};
    for (const k of keys(all[scope])) {
      const v = all[scope][k];
      if (v !== undefined && defaults[scope][k] !== v) out[k] = v;
    }
    return out;
  };
  return convertCssVariables({
    variables: changed('variables'),
    light: changed('light'),
    dark: changed('dark'),
  });
}
