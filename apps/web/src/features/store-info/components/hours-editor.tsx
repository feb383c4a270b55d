import { useState } from 'react';
import { ActionIcon, Box, Button, Flex, Group, Select, Stack, Text } from '@mantine/core';
import {
  DAY_HOURS,
  WEEK_DAY_LABELS,
  WEEK_DAYS,
  type DayHoursType,
  type DayRow,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { TimeField } from './time-field';

/** Every day at least once, in week order (a day's extra intervals right after it). */
export const normaliseRows = (rows: readonly DayRow[]): DayRow[] =>
  WEEK_DAYS.flatMap((day) => {
    const mine = rows.filter((r) => r.day === day);
    return mine.length > 0
      ? mine
      : [{ day, type: DAY_HOURS.CLOSED as DayHoursType, open: '09:00', close: '18:00' }];
  });

/**
 * The seven-day hours editor (spec 2 §4): a type per day (OPEN / ALL_DAYS / CLOSED), opening
 * and closing times for an open row, "add another" inserting an extra open interval after that
 * day, and delete removing an extra one. On a phone a day is two lines or more (the day and its
 * type, then one line a time slot); from the sm breakpoint it is one row with the slots in a
 * column. Enter in a time field sets the time and never submits the form (issue 23); the
 * day-type selects are read-only inputs, from which Chromium submits nothing.
 */
export function HoursEditor({
  rows,
  onChange,
  disabled,
}: {
  rows: DayRow[];
  onChange: (rows: DayRow[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  // What a time field says about its last entry (rounded or refused), by `${row}:${open|close}`.
  const [notes, setNotes] = useState<Record<string, string>>({});
  const typeOptions = [DAY_HOURS.OPEN, DAY_HOURS.ALL_DAYS, DAY_HOURS.CLOSED].map((v) => ({
    value: String(v),
    label: t(`storeInfo.hoursType.${v}`),
  }));
  const change = (next: DayRow[], keepNotes: boolean) => {
    if (!keepNotes) setNotes({});
    onChange(next);
  };
  const set = (i: number, patch: Partial<DayRow>) =>
    change(
      rows.map((r, k) => (k === i ? { ...r, ...patch } : r)),
      true,
    );
  const setTime = (i: number, which: 'open' | 'close', time: string, note: string | null) => {
    setNotes((n) => {
      const next = { ...n };
      if (note) next[`${i}:${which}`] = note;
      else delete next[`${i}:${which}`];
      return next;
    });
    if (rows[i]?.[which] !== time) set(i, { [which]: time });
  };
  const setType = (i: number, type: DayHoursType) => {
    const day = rows[i]?.day;
    // A day that is all day or closed has one row: its extra intervals go.
    const next = rows
      .map((r, k) => (k === i ? { ...r, type } : r))
      .filter((r, k) => type === DAY_HOURS.OPEN || r.day !== day || k === i);
    change(next, false);
  };
  const addAfter = (i: number) => {
    const r = rows[i];
    if (!r) return;
    let end = i;
    while (rows[end + 1]?.day === r.day) end += 1;
    const next = [...rows];
    next.splice(end + 1, 0, { day: r.day, type: DAY_HOURS.OPEN, open: r.close, close: '23:45' });
    change(next, false);
  };
  const remove = (i: number) =>
    change(
      rows.filter((_, k) => k !== i),
      false,
    );

  const days = WEEK_DAYS.map((day) => ({
    day,
    at: rows.flatMap((r, i) => (r.day === day ? [i] : [])),
  })).filter((d) => d.at.length > 0);

  return (
    <Stack gap="sm" role="group" aria-label={t('storeInfo.hoursTitle')}>
      <Text size="sm" c="dimmed">
        {t('storeInfo.timeHint')}
      </Text>
      {days.map(({ day, at }) => {
        const label = WEEK_DAY_LABELS[day];
        const first = at[0] ?? 0;
        const head = rows[first];
        if (!head) return null;
        return (
          <Flex
            key={day}
            direction={{ base: 'column', sm: 'row' }}
            gap={{ base: 6, sm: 'md' }}
            align={{ base: 'stretch', sm: 'flex-start' }}
            data-testid={`hours-${day}`}
          >
            <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
              <Text fw={500} w={{ sm: 72 }} style={{ whiteSpace: 'nowrap' }}>
                {label}
              </Text>
              <Select
                aria-label={t('storeInfo.hoursOf.type', { day: label })}
                data={typeOptions}
                value={String(head.type)}
                allowDeselect={false}
                disabled={disabled}
                w={140}
                onChange={(v) => v !== null && setType(first, Number(v) as DayHoursType)}
              />
            </Group>
            {head.type === DAY_HOURS.OPEN && (
              <Stack gap={6} style={{ minWidth: 0 }}>
                {at.map((i) => {
                  const r = rows[i];
                  if (!r) return null;
                  const nth = i === first ? '' : t('storeInfo.hoursOf.nth', { n: i });
                  const said = [notes[`${i}:open`], notes[`${i}:close`]].filter(Boolean);
                  return (
                    <Box key={`${day}-${i}`}>
                      <Group gap="xs" wrap="wrap">
                        <Group gap={6} wrap="nowrap">
                          <TimeField
                            label={t('storeInfo.hoursOf.open', { day: label, nth })}
                            value={r.open}
                            role="open"
                            disabled={disabled}
                            onCommit={(time, note) => setTime(i, 'open', time, note)}
                          />
                          <Text>〜</Text>
                          <TimeField
                            label={t('storeInfo.hoursOf.close', { day: label, nth })}
                            value={r.close}
                            role="close"
                            disabled={disabled}
                            onCommit={(time, note) => setTime(i, 'close', time, note)}
                          />
                        </Group>
                        {i === first ? (
                          <Button
                            variant="subtle"
                            size="xs"
                            px={6}
                            disabled={disabled}
                            aria-label={t('storeInfo.hoursOf.addInterval', { day: label })}
                            onClick={() => addAfter(i)}
                          >
                            {t('storeInfo.addInterval')}
                          </Button>
                        ) : (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            disabled={disabled}
                            aria-label={t('storeInfo.hoursOf.removeInterval', { day: label })}
                            onClick={() => remove(i)}
                          >
                            ×
                          </ActionIcon>
                        )}
                      </Group>
                      {said.map((note) => (
                        <Text key={note} size="sm" c="orange" role="status" mt={2}>
                          {note}
                        </Text>
                      ))}
                    </Box>
                  );
                })}
              </Stack>
            )}
          </Flex>
        );
      })}
    </Stack>
  );
}
