import { useState } from 'react';
import { Box, ColorSwatch, Group, Stack, Text } from '@mantine/core';
import { IMPRESSION_FIELDS, type CustomerSearch } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { formatCount, METRIC_COLORS } from './chart-colors';
import { DoughnutRing } from './doughnut-ring';

/**
 * Searches by source (spec 3 §2): idle, the centre shows the total of the four; hovering a
 * slice shows its label, value and share. Cutout 80 %, fixed colours.
 */
export function SearchDoughnut({ data }: { data: CustomerSearch }) {
  const { t } = useTranslation();
  const [active, setActive] = useState<number | null>(null);
  const values = IMPRESSION_FIELDS.map((f) => data[f] ?? 0);
  const labels = IMPRESSION_FIELDS.map((f) => t(`screens.report.metrics.${f}`));
  const total = values.reduce((a, b) => a + b, 0);
  const value = active !== null ? (values[active] ?? 0) : total;
  const pct =
    active !== null && total > 0 ? Math.round(((values[active] ?? 0) / total) * 1000) / 10 : null;
  return (
    <Box>
      <Box pos="relative" h={220}>
        <DoughnutRing
          label={t('screens.dashboard.searchSource')}
          segments={IMPRESSION_FIELDS.map((f, i) => ({
            value: values[i] ?? 0,
            color: METRIC_COLORS[f],
            label: labels[i] ?? f,
          }))}
          active={active}
          onActive={setActive}
        />
        <Box
          pos="absolute"
          inset={0}
          style={{ display: 'grid', placeItems: 'center', pointerEvents: 'none' }}
          data-testid="doughnut-centre"
        >
          <Box ta="center" maw={150}>
            <Text size="xs" c="dimmed">
              {active !== null ? labels[active] : t('screens.dashboard.total')}
            </Text>
            <Text fw={700} fz={26}>
              {formatCount(value)}
            </Text>
            {pct !== null && (
              <Text size="sm" c="dimmed">
                {pct}%
              </Text>
            )}
          </Box>
        </Box>
      </Box>
      <Stack gap={4} mt="sm">
        {labels.map((l, i) => (
          <Group key={l} justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={6} wrap="nowrap">
              <ColorSwatch size={10} color={METRIC_COLORS[IMPRESSION_FIELDS[i]!]} />
              <Text size="sm">{l}</Text>
            </Group>
            <Text size="sm" fw={500}>
              {formatCount(values[i] ?? 0)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Box>
  );
}
