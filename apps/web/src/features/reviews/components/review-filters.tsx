import { useId, useState } from 'react';
import { Button, Chip, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { REVIEW_REPLIED_FILTERS, REVIEW_SEARCH_MAX, type ReviewRepliedFilter } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import type { ReviewFilters } from '../api/reviews-api';
import { isFiltered, STAR_VALUES } from '../filters';

/** The search waits for typing to pause, as /posts' does (spec 2 §9). */
export const REVIEW_SEARCH_DEBOUNCE_MS = 500;

/**
 * The list's filters (docs/product/reviews.md): stars (several), replied or not, the days the
 * review was written between, and words of its text or the reviewer's name.
 */
export function ReviewFiltersBar({
  filters,
  onChange,
  onClear,
}: {
  filters: ReviewFilters;
  onChange: (patch: Partial<ReviewFilters>) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const repliedLabel = useId();
  const [search, setSearch] = useState(filters.q);
  const sendSearch = useDebouncedCallback(
    (q: string) => onChange({ q }),
    REVIEW_SEARCH_DEBOUNCE_MS,
  );
  return (
    <Stack gap="sm">
      <Group gap="md" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('reviews.filters.stars')}
          </Text>
          <Chip.Group
            multiple
            value={filters.stars.map(String)}
            onChange={(v) => onChange({ stars: v.map(Number).sort((a, b) => a - b) })}
          >
            <Group gap={6} role="group" aria-label={t('reviews.filters.stars')}>
              {STAR_VALUES.map((n) => (
                <Chip key={n} value={String(n)} size="sm" variant="outline">
                  {t('reviews.filters.star', { n })}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id={repliedLabel}>
            {t('reviews.filters.replied')}
          </Text>
          <SegmentedControl
            aria-labelledby={repliedLabel}
            value={filters.replied}
            onChange={(v) => onChange({ replied: v as ReviewRepliedFilter })}
            data={REVIEW_REPLIED_FILTERS.map((k) => ({
              value: k,
              label: t(`reviews.filters.repliedOptions.${k}`),
            }))}
          />
        </Stack>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="date"
          label={t('reviews.filters.from')}
          value={filters.from}
          max={filters.to || undefined}
          onChange={(e) => onChange({ from: e.currentTarget.value })}
          w={160}
        />
        <TextInput
          type="date"
          label={t('reviews.filters.to')}
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => onChange({ to: e.currentTarget.value })}
          w={160}
        />
        <TextInput
          type="search"
          label={t('reviews.filters.search')}
          placeholder={t('reviews.filters.searchPlaceholder')}
          value={search}
          maxLength={REVIEW_SEARCH_MAX}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            sendSearch(e.currentTarget.value);
          }}
          w={{ base: '100%', xs: 280 }}
        />
        {(isFiltered(filters) || search !== '') && (
          <Button
            variant="subtle"
            onClick={() => {
              sendSearch.cancel();
              setSearch('');
              onClear();
            }}
          >
            {t('reviews.filters.clear')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
