import { useState } from 'react';
import { Button, Checkbox, Group, MultiSelect, Select, Stack, Textarea } from '@mantine/core';
import {
  businessDetailsRequest,
  DESCRIPTION_MAX,
  PAYMENT_OPTIONS,
  periodsOfRows,
  PICKUP_DELIVERY,
  PICKUP_DELIVERY_LABELS,
  PRICE_RANGES,
  rowsOfPeriods,
  storeInfoLabels,
  type BusinessDetails,
  type DayRow,
} from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { saveDetailsCall } from '../api/store-info-api';
import { HoursEditor, normaliseRows } from './hours-editor';
import { useSaveSection } from './use-save-section';

const hoursState = (specify: boolean, rows: DayRow[]) => JSON.stringify({ specify, rows });

type Values = {
  description: string;
  temporarily_closed: boolean;
  payment_options: string[];
  price_range: string | null;
  pickup_and_delivery_services: string[];
  hours: string;
};

/**
 * Business details (spec 2 §2, §3, §4): description, the hours editor (saved only when "specify
 * hours" is ticked, otherwise an empty list is sent; closed days left out), temporarily closed,
 * payment options, price range, pickup and delivery.
 */
export function DetailsForm({ userId, details }: { userId: number; details: BusinessDetails }) {
  const { t } = useTranslation();
  const [specify, setSpecifyState] = useState(details.hours.length > 0);
  const [rows, setRowsState] = useState<DayRow[]>(() =>
    normaliseRows(rowsOfPeriods(details.hours)),
  );
  const form = useForm<Values>({
    defaultValues: {
      description: details.description ?? '',
      temporarily_closed: details.temporarily_closed_hours.dateOff,
      payment_options: details.payment_options.map((o) => o.value),
      price_range: details.price_range,
      pickup_and_delivery_services: details.pickup_and_delivery_services.map((o) => o.value),
      hours: hoursState(specify, rows),
    },
  });
  // The hours live outside the form's fields; their state is mirrored in `hours` so that the
  // form knows when they changed (the leave warning) and when they are back as they were.
  const setSpecify = (v: boolean) => {
    setSpecifyState(v);
    form.setValue('hours', hoursState(v, rows), { shouldDirty: true });
  };
  const setRows = (v: DayRow[]) => {
    setRowsState(v);
    form.setValue('hours', hoursState(specify, v), { shouldDirty: true });
  };
  const { save, saving, errors, onSubmit } = useSaveSection(
    userId,
    businessDetailsRequest,
    saveDetailsCall,
    form,
  );
  const fe = form.formState.errors;

  const submit = onSubmit(async (v) => {
    await save({
      description: v.description,
      hours: JSON.stringify(specify ? periodsOfRows(rows) : []),
      temporarily_closed: v.temporarily_closed,
      payment_options: v.payment_options,
      price_range: v.price_range,
      pickup_and_delivery_services: v.pickup_and_delivery_services,
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('storeInfo.detailsTitle')}>
      <Stack>
        <ErrorAlert lines={errors} />
        <Textarea
          label={storeInfoLabels.description}
          autosize
          minRows={3}
          maxLength={DESCRIPTION_MAX}
          description={`${form.watch('description').length} / ${DESCRIPTION_MAX}`}
          error={fe.description?.message}
          {...form.register('description')}
        />
        <Checkbox
          label={t('storeInfo.specifyHours')}
          checked={specify}
          onChange={(e) => setSpecify(e.currentTarget.checked)}
        />
        {specify && <HoursEditor rows={rows} onChange={setRows} />}
        {fe.hours?.message && (
          <div role="alert" style={{ color: 'var(--mantine-color-red-7)' }}>
            {fe.hours.message}
          </div>
        )}
        <Checkbox
          label={t('storeInfo.temporarilyClosed')}
          {...form.register('temporarily_closed')}
        />
        <MultiSelect
          label={storeInfoLabels.payment_options}
          data={PAYMENT_OPTIONS.map((o) => ({ value: o.value, label: o.text }))}
          value={form.watch('payment_options')}
          onChange={(v) => form.setValue('payment_options', v, { shouldDirty: true })}
          searchable
          clearable
          error={fe.payment_options?.message}
        />
        <Select
          label={storeInfoLabels.price_range}
          data={PRICE_RANGES.map((p) => ({
            value: p,
            label: p === 'Unspecified' ? t('storeInfo.priceUnspecified') : p,
          }))}
          value={form.watch('price_range')}
          onChange={(v) => form.setValue('price_range', v, { shouldDirty: true })}
          clearable
          error={fe.price_range?.message}
        />
        <Checkbox.Group
          label={storeInfoLabels.pickup_and_delivery_services}
          value={form.watch('pickup_and_delivery_services')}
          onChange={(v) => form.setValue('pickup_and_delivery_services', v, { shouldDirty: true })}
          error={fe.pickup_and_delivery_services?.message}
        >
          <Group mt={4}>
            {PICKUP_DELIVERY.map((p) => (
              <Checkbox key={p} value={p} label={PICKUP_DELIVERY_LABELS[p]} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={saving}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
