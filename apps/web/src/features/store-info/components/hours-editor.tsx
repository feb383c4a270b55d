import { ActionIcon, Button, Group, Select, Table, Text } from '@mantine/core';
import {
  DAY_HOURS,
  HOURS_STEP_MINUTES,
  WEEK_DAY_LABELS,
  WEEK_DAYS,
  type DayHoursType,
  type DayRow,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/** 00:00 to 23:45 in the picker's 15-minute steps (spec 2 §4, §9). */
export const TIME_OPTIONS: string[] = Array.from(
  { length: (24 * 60) / HOURS_STEP_MINUTES },
  (_, i) => {
    const m = i * HOURS_STEP_MINUTES;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  },
);

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
 * day, and delete removing an extra one.
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
  const typeOptions = [DAY_HOURS.OPEN, DAY_HOURS.ALL_DAYS, DAY_HOURS.CLOSED].map((v) => ({
    value: String(v),
    label: t(`storeInfo.hoursType.${v}`),
  }));
  const set = (i: number, patch: Partial<DayRow>) =>
    onChange(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const setType = (i: number, type: DayHoursType) => {
    const day = rows[i]?.day;
    // A day that is all day or closed has one row: its extra intervals go.
    const next = rows
      .map((r, k) => (k === i ? { ...r, type } : r))
      .filter((r, k) => type === DAY_HOURS.OPEN || r.day !== day || k === i);
    onChange(next);
  };
  const addAfter = (i: number) => {
    const r = rows[i];
    if (!r) return;
    let end = i;
    while (rows[end + 1]?.day === r.day) end += 1;
    const next = [...rows];
    next.splice(end + 1, 0, { day: r.day, type: DAY_HOURS.OPEN, open: r.close, close: '23:45' });
    onChange(next);
  };
  const remove = (i: number) => onChange(rows.filter((_, k) => k !== i));

  return (
    <Table withRowBorders={false} verticalSpacing={4} aria-label={t('storeInfo.specifyHours')}>
      <Table.Tbody>
        {rows.map((r, i) => {
          const first = rows[i - 1]?.day !== r.day;
          const label = WEEK_DAY_LABELS[r.day];
          return (
            <Table.Tr key={`${r.day}-${i}`}>
              <Table.Td w={80}>{first && <Text fw={500}>{label}</Text>}</Table.Td>
              <Table.Td w={150}>
                {first ? (
                  <Select
                    aria-label={`${label}の営業区分`}
                    data={typeOptions}
                    value={String(r.type)}
                    allowDeselect={false}
                    disabled={disabled}
                    onChange={(v) => v !== null && setType(i, Number(v) as DayHoursType)}
                  />
                ) : null}
              </Table.Td>
              <Table.Td>
                {r.type === DAY_HOURS.OPEN && (
                  <Group gap="xs" wrap="nowrap">
                    <Select
                      aria-label={`${label}の${t('storeInfo.open')}${first ? '' : `（${i}）`}`}
                      data={TIME_OPTIONS}
                      value={r.open}
                      searchable
                      allowDeselect={false}
                      disabled={disabled}
                      w={110}
                      onChange={(v) => v && set(i, { open: v })}
                    />
                    <Text>〜</Text>
                    <Select
                      aria-label={`${label}の${t('storeInfo.close')}${first ? '' : `（${i}）`}`}
                      data={TIME_OPTIONS}
                      value={r.close}
                      searchable
                      allowDeselect={false}
                      disabled={disabled}
                      w={110}
                      onChange={(v) => v && set(i, { close: v })}
                    />
                    {first ? (
                      <Button
                        variant="subtle"
                        size="xs"
                        disabled={disabled}
                        aria-label={`${label}に${t('storeInfo.addInterval')}`}
                        onClick={() => addAfter(i)}
                      >
                        {t('storeInfo.addInterval')}
                      </Button>
                    ) : (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        disabled={disabled}
                        aria-label={`${label}の時間帯を${t('storeInfo.removeInterval')}`}
                        onClick={() => remove(i)}
                      >
                        ×
                      </ActionIcon>
                    )}
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
