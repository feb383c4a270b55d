import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { themeCssVariables } from './css-variables';
import { theme } from './theme';
import { cssVariablesResolver } from './theme-colors';

describe('the theme CSS variables written at build time (ADR 0079)', () => {
  it('are exactly what Mantine’s provider writes into the page for this theme', () => {
    render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <p>x</p>
      </MantineProvider>,
    );
    const tags = [...document.querySelectorAll('style[data-mantine-styles]')];
    const rendered = tags.map((s) => s.innerHTML).find((css) => css.includes(':root'));
    expect(rendered).toBeDefined();
    expect(themeCssVariables()).toBe(rendered);
    // The readable colours of ADR 0073 are among them.
    expect(rendered).toContain('--mantine-color-dimmed:');
  });
});
