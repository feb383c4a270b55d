import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatFigure, parseKeywordValue, type SearchKeywords } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { formatCount } from './chart-colors';

/** The top 10 keywords, largest first, in two columns of five (spec 3 §9), with the total. */
export function KeywordList({ data }: { data: SearchKeywords }) {
  const { t } = useTranslation();
  // Largest first, whatever order the object kept (an integer-like keyword such as '2026'
  // would otherwise jump to the front); a threshold counts as its bound.
  const rows = Object.entries(data.search_keywords)
    .map(([kw, v], i) => ({ kw, v, i, n: parseKeywordValue(v)?.n ?? 0 }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, 10)
    .map(({ kw, v }) => [kw, v] as const);
  const columns = [rows.slice(0, 5), rows.slice(5, 10)];
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('screens.dashboard.keywordsTotal')}
        </Text>
        <Text fw={700} data-testid="keywords-total">
          {formatCount(data.search_keywords_total)}
        </Text>
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{t('screens.dashboard.noKeywords')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {columns.map((col, c) => (
            <Stack component="ol" gap={6} key={c} m={0} p={0} style={{ listStyle: 'none' }}>
              {col.map(([kw, v], i) => (
                <Group
                  component="li"
                  key={kw}
                  justify="space-between"
                  wrap="nowrap"
                  gap="xs"
                  py={4}
                  style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                >
                  <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                    <Text size="sm" c="dimmed" w={20}>
                      {c * 5 + i + 1}
                    </Text>
                    <Text size="sm" truncate>
                      {kw}
                    </Text>
                  </Group>
                  <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
                    {formatFigure(v)}
                  </Text>
                </Group>
              ))}
            </Stack>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
