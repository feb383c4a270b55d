import { useEffect, useState } from 'react';
import { Combobox, ScrollArea, TextInput, useCombobox } from '@mantine/core';
import { HOURS_STEP_MINUTES, readTypedTime } from '@tenpo/domain';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** 00:00 to 23:45 in the picker's 15-minute steps (spec 2 §4, §9). */
export const TIME_OPTIONS: string[] = Array.from(
  { length: (24 * 60) / HOURS_STEP_MINUTES },
  (_, i) => {
    const m = i * HOURS_STEP_MINUTES;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  },
);

/** The quarter hours that what is being typed may become ("10" → 10:00–10:45, "9:3" → 09:30). */
export function suggestions(text: string): string[] {
  const q = text.normalize('NFKC').replace(/\s+/g, '').replace('時', ':').replace(/分$/, '');
  if (q === '') return TIME_OPTIONS;
  if (!/^\d{1,4}$|^\d{1,2}:\d{0,2}$/.test(q)) return [];
  if (q.includes(':')) {
    const [h = '', m = ''] = q.split(':');
    const prefix = `${h.padStart(2, '0')}:${m}`;
    return TIME_OPTIONS.filter((o) => o.startsWith(prefix));
  }
  if (q.length === 1) return TIME_OPTIONS.filter((o) => o.startsWith(q) || o.startsWith(`0${q}`));
  if (q.length === 2) return TIME_OPTIONS.filter((o) => o.startsWith(q));
  const asHHm = `${q.slice(0, 2)}:${q.slice(2)}`;
  const asHmm = `${q.slice(0, q.length - 2).padStart(2, '0')}:${q.slice(-2)}`;
  return TIME_OPTIONS.filter((o) => o.startsWith(asHHm) || o === asHmm);
}

/**
 * A time of the hours editor: typed (kept as typed on the 15-minute grid, other minutes to the
 * nearest quarter hour, what is not a time refused; ADR 0069) or picked from the quarter hours.
 * Enter and leaving the field only set the time: they never submit the form, so nothing is
 * saved before the form's save button.
 */
export function TimeField({
  label,
  value,
  role,
  disabled,
  onCommit,
}: {
  label: string;
  value: string;
  role: 'open' | 'close';
  disabled?: boolean;
  /** The time now in the field, and a note when it is not what was typed (null otherwise). */
  onCommit: (time: string, note: string | null) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const [editing, setEditing] = useState(false);
  const combobox = useCombobox({
    onDropdownOpen: () => combobox.updateSelectedOptionIndex('active', { scrollIntoView: true }),
    onDropdownClose: () => combobox.resetSelectedOption(),
  });
  // A change from outside (another row removed, the store's answer) shows when not typing.
  useEffect(() => {
    if (!editing) setText(value);
  }, [value, editing]);

  const shown = editing && text !== value ? suggestions(text) : TIME_OPTIONS;

  const commit = (raw: string) => {
    // Unchanged since the last time set: nothing to do (and the note about it stays).
    if (raw === value) return;
    if (raw.trim() === '') {
      setText(value);
      onCommit(value, null);
      return;
    }
    const read = readTypedTime(raw, role);
    if (read.kind === 'unreadable') {
      setText(value);
      onCommit(value, t('storeInfo.timeUnreadable', { typed: raw.trim() }));
      return;
    }
    setText(read.time);
    onCommit(
      read.time,
      read.kind === 'rounded'
        ? t('storeInfo.timeRounded', { typed: raw.trim(), time: read.time })
        : null,
    );
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    // Enter sets this time; it must not submit the form (issue 23).
    e.preventDefault();
    // An option chosen with the arrow keys is picked by the combobox itself.
    if (combobox.dropdownOpened && combobox.getSelectedOptionIndex() !== -1) return;
    commit(text);
    combobox.closeDropdown();
  };

  return (
    <Combobox
      store={combobox}
      disabled={disabled}
      withinPortal
      onOptionSubmit={(v) => {
        setText(v);
        onCommit(v, null);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          aria-label={label}
          value={text}
          disabled={disabled}
          autoComplete="off"
          w={84}
          onChange={(e) => {
            setText(e.currentTarget.value);
            combobox.openDropdown();
            combobox.resetSelectedOption();
          }}
          onFocus={() => {
            setEditing(true);
            combobox.openDropdown();
          }}
          onClick={() => combobox.openDropdown()}
          onBlur={() => {
            setEditing(false);
            combobox.closeDropdown();
            commit(text);
          }}
          onKeyDown={onKeyDown}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={shown.length === 0} miw={96}>
        <Combobox.Options>
          <ScrollArea.Autosize mah={220} type="scroll">
            {shown.map((o) => (
              <Combobox.Option key={o} value={o} active={o === value}>
                {o}
              </Combobox.Option>
            ))}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
