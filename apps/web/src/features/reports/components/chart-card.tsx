import { useId, type ReactNode } from 'react';
import { Card, Center, Group, Loader, Text, Title } from '@mantine/core';
import './period-select.css';
import { useTranslation } from 'react-i18next';
import type { Ja } from '@/i18n/ja';

/** A period the selector offers: a key of the catalog's `screens.dashboard.periods`. */
type Period = keyof Ja['screens']['dashboard']['periods'];

export type ChartState = 'loading' | 'error' | 'empty' | 'ready';

/** The state of a chart from its query: an error clears the chart; all zero is "not enough data". */
export const chartState = (
  q: { isPending: boolean; isError: boolean },
  empty: boolean,
): ChartState => (q.isError ? 'error' : q.isPending ? 'loading' : empty ? 'empty' : 'ready');

/**
 * The period selector of a card (spec 3 §9: 7 一週間, 1 一ヶ月, 3 三ヶ月): native radio buttons in
 * one row, styled as a segmented control. Mantine's SegmentedControl measured its indicator on
 * every layout; with five on /dashboard that was the page's largest forced layout on a phone
 * (issue 23 item 5). Arrow keys move between the options as in any radio group.
 */
export function PeriodSelect({
  value,
  options,
  onChange,
  label,
}: {
  value: string;
  options: readonly Period[];
  onChange: (v: string) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <div role="radiogroup" aria-label={label} className="period-select">
      {options.map((o) => (
        <label key={o} className="period-select__option">
          <input
            type="radio"
            name={name}
            value={o}
            checked={value === o}
            onChange={() => onChange(o)}
          />
          <span>{t(`screens.dashboard.periods.${o}`)}</span>
        </label>
      ))}
    </div>
  );
}

/** A titled card holding one chart, its period selector and its loading, error and empty states. */
export function ChartCard({
  title,
  action,
  state,
  children,
  minHeight = 280,
}: {
  title: string;
  action?: ReactNode;
  state: ChartState;
  children: ReactNode;
  minHeight?: number;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} h="100%">
      <Group justify="space-between" mb="md" wrap="wrap" gap="xs">
        <Title order={4} fz="md">
          {title}
        </Title>
        {action}
      </Group>
      {state === 'ready' ? (
        children
      ) : (
        <Center mih={minHeight}>
          {state === 'loading' ? (
            <Loader size="sm" aria-label={t('app.loading')} />
          ) : (
            <Text
              c={state === 'error' ? 'red' : 'dimmed'}
              ta="center"
              role={state === 'error' ? 'alert' : undefined}
            >
              {state === 'error'
                ? t('screens.dashboard.error')
                : t('screens.dashboard.notEnoughData')}
            </Text>
          )}
        </Center>
      )}
    </Card>
  );
}
