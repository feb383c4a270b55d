import type { ReactNode } from 'react';
import { Card, Stack, Title } from '@mantine/core';

/** One titled part of the payment screens (プラン, 支払い方法, クレジットカード, お支払い). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
