import { Button, Group, Stack, TextInput } from '@mantine/core';
import { DAY_MS, formatTokyoDateTime } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/** `yyyy-MM-dd HH:mm:ss` (the form's value) ↔ the input's `yyyy-MM-ddTHH:mm:ss`. */
const toInput = (v: string) => v.replace(' ', 'T');
const fromInput = (v: string) => {
  if (v === '') return '';
  const s = v.replace('T', ' ');
  return s.length === 16 ? `${s}:00` : s;
};

/**
 * A date and time in Asia/Tokyo (spec 2 §5, §9): the input's wall-clock value is read as Tokyo
 * time whatever the browser's zone. The shortcuts are the spec's: today (now), yesterday and a
 * week ago at the current time; the picker offers no day before yesterday (ADR 0075). A past
 * value set by a shortcut is shown with the form's rule message at once (publish, end and
 * removal must be now or later); an event's start may be in the past.
 */
export function TokyoDateField({
  label,
  description,
  required = false,
  value,
  onChange,
  error,
  now,
}: {
  label: string;
  description?: string;
  required?: boolean;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
  now: () => Date;
}) {
  const { t } = useTranslation();
  const at = (days: number) => formatTokyoDateTime(now().getTime() + days * DAY_MS);
  const min = `${at(-1).slice(0, 10)}T00:00`;
  return (
    <Stack gap={4}>
      <TextInput
        type="datetime-local"
        label={label}
        description={description}
        required={required}
        value={toInput(value)}
        min={min}
        step={1}
        onChange={(e) => onChange(fromInput(e.currentTarget.value))}
        error={error || undefined}
      />
      <Group gap={4}>
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => onChange(at(0))}
          aria-label={`${label} ${t('posts.shortcuts.today')}`}
        >
          {t('posts.shortcuts.today')}
        </Button>
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => onChange(at(-1))}
          aria-label={`${label} ${t('posts.shortcuts.yesterday')}`}
        >
          {t('posts.shortcuts.yesterday')}
        </Button>
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => onChange(at(-7))}
          aria-label={`${label} ${t('posts.shortcuts.weekAgo')}`}
        >
          {t('posts.shortcuts.weekAgo')}
        </Button>
        <Button
          size="compact-xs"
          variant="subtle"
          color="gray"
          disabled={value === ''}
          onClick={() => onChange('')}
          aria-label={`${label} ${t('posts.form.clear')}`}
        >
          {t('posts.form.clear')}
        </Button>
      </Group>
    </Stack>
  );
}
