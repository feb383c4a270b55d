import { Title, type TitleProps } from '@mantine/core';

/**
 * The screen's one level-1 heading (WCAG 1.3.1, ADR 0073), drawn at the size the screens' titles
 * have always had (h2).
 */
export function PageTitle(props: Omit<TitleProps, 'order'>) {
  return <Title order={1} size="h2" {...props} />;
}
