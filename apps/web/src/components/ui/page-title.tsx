import type { ReactNode } from 'react';
import { Alert, Stack, Title, type TitleProps } from '@mantine/core';

/**
 * The screen's one level-1 heading (WCAG 1.3.1, ADR 0073), drawn at the size the screens' titles
 * have always had (h2).
 */
export function PageTitle(props: Omit<TitleProps, 'order'>) {
  return <Title order={1} size="h2" {...props} />;
}

/** A screen that has nothing to show yet (no store chosen): its title and why, as a notice. */
export function PageNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack>
      <PageTitle>{title}</PageTitle>
      <Alert color="blue" variant="light">
        {children}
      </Alert>
    </Stack>
  );
}
