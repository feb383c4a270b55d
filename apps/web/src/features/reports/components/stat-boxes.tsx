import { Badge, Card, Group, SimpleGrid, Text } from '@mantine/core';
import type { BoxData } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { formatCount } from './chart-colors';

const BOXES = [
  ['view', 'view_total', 'percent_view_total'],
  ['search', 'search_keywords_total', 'percent_search_keywords_total'],
  ['action', 'action_total', 'percent_action_total'],
  ['website', 'action_website', 'percent_action_website'],
  ['direction', 'action_driving_direction', 'percent_action_driving_direction'],
  ['phone', 'action_phone', 'percent_action_phone'],
] as const satisfies readonly (readonly [string, keyof BoxData, keyof BoxData])[];

/** `+12.5%`, `-3%`, `0%`; no figure (a previous period of zero, or a failure) is an empty badge. */
export const percentText = (p: number | null | undefined): string =>
  p === null || p === undefined ? '' : `${p > 0 ? '+' : ''}${p}%`;

const badgeColor = (p: number | null | undefined) =>
  p === null || p === undefined || p === 0 ? 'gray' : p > 0 ? 'teal' : 'red';

/** The six stat boxes (spec 3 §2); `data` null (a failure) shows 0 and empty badges. */
export function StatBoxes({ data }: { data: BoxData | null }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
      {BOXES.map(([key, value, percent]) => {
        const v = data ? Number(data[value] ?? 0) : 0;
        const p = data ? (data[percent] as number | null) : null;
        return (
          <Card key={key} withBorder radius="md" padding="md" data-testid={`box-${key}`}>
            <Text size="sm" c="dimmed">
              {t(`screens.dashboard.boxes.${key}`)}
            </Text>
            <Group justify="space-between" align="flex-end" mt={4} wrap="nowrap">
              <Text fw={700} fz={28} lh={1.2} data-testid={`box-${key}-value`}>
                {formatCount(v)}
              </Text>
              <Badge
                variant="light"
                color={badgeColor(p)}
                miw={56}
                data-testid={`box-${key}-badge`}
                aria-label={p === null ? t('screens.dashboard.badgeNone') : percentText(p)}
              >
                {percentText(p)}
              </Badge>
            </Group>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
