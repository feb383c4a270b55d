import { useState, type ReactNode } from 'react';
import { Button, Grid, Group, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import {
  coreInformationRequest,
  PLACEHOLDER_NAME,
  storeInfoLabels,
  type CoreInformation,
} from '@tenpo/domain';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { saveCoreCall } from '../api/store-info-api';
import { useSaveSection } from './use-save-section';

export type CategoryOption = { value: string; label: string };

/** What a postal-code lookup gives the form (the address parts and the point). */
export type PostalAnswer = {
  prefecture: string | null;
  locality: string | null;
  address1: string | null;
  latitude: number | null;
  longitude: number | null;
};

type Values = {
  name: string;
  postal_code: string;
  region_code: string;
  prefecture: string;
  locality: string;
  address1: string;
  address2: string;
  address3: string;
  main_phone: string;
  primary_category_id: string | null;
  additional_categorie_id: string[];
  corporate_code: string;
  latitude: number | null;
  longitude: number | null;
};

/** The main phone as the user reads it (national format), from Google's or Tenpo's E.164. */
const phoneForDisplay = (v: string | null, region: string): string => {
  if (!v) return '';
  const p = parsePhoneNumberFromString(v, region as CountryCode);
  return p ? p.formatNational() : v;
};

/** The form's start: the store's core information, the main phone as the user reads it. */
const defaultsOf = (core: CoreInformation, region: string): Values => ({
  name: core.name === PLACEHOLDER_NAME ? '' : core.name,
  postal_code: core.address.postalCode ?? '',
  region_code: region,
  prefecture: core.address.administrativeArea ?? '',
  locality: core.address.locality ?? '',
  address1: core.address.address1 ?? '',
  address2: core.address.address2 ?? '',
  address3: core.address.address3 ?? '',
  main_phone: phoneForDisplay(core.main_phone, region),
  primary_category_id: core.primary_category?.name ?? null,
  additional_categorie_id: (core.additional_categories ?? []).map((c) => c.name),
  corporate_code: core.corporate_code ?? '',
  latitude: core.map_marker?.latitude ?? null,
  longitude: core.map_marker?.longitude ?? null,
});

/** What is saved: the form's values, the phone in E.164, each category with its name. */
const coreBodyOf = (v: Values, phone: string | null, categoryData: CategoryOption[]) => {
  const names = new Map(categoryData.map((c) => [c.value, c.label]));
  return {
    name: v.name,
    postal_code: v.postal_code,
    region_code: v.region_code || null,
    prefecture: v.prefecture,
    locality: v.locality,
    address1: v.address1,
    address2: v.address2,
    address3: v.address3,
    main_phone: phone,
    primary_category_id: v.primary_category_id,
    primary_category_name: v.primary_category_id
      ? (names.get(v.primary_category_id) ?? null)
      : null,
    additional_categorie_id: v.additional_categorie_id,
    additional_categorie_name: v.additional_categorie_id.map((id) => names.get(id) ?? ''),
    latitude: v.latitude,
    longitude: v.longitude,
    corporate_code: v.corporate_code,
  };
};

/**
 * The postal-code lookup: fills the prefecture, locality, first address line and the marker
 * from the code typed, or says the code was not found.
 */
function usePostalLookup(
  form: UseFormReturn<Values>,
  lookupPostalCode: ((code: string) => Promise<PostalAnswer | null>) | undefined,
) {
  const { t } = useTranslation();
  const [lookup, setLookup] = useState<{ busy: boolean; message: string | null }>({
    busy: false,
    message: null,
  });

  const runLookup = async () => {
    if (!lookupPostalCode) return;
    setLookup({ busy: true, message: null });
    const r = await lookupPostalCode(form.getValues('postal_code').trim()).catch(() => null);
    if (!r) {
      setLookup({ busy: false, message: t('storeInfo.postalNotFound') });
      return;
    }
    if (r.prefecture) form.setValue('prefecture', r.prefecture, { shouldDirty: true });
    if (r.locality) form.setValue('locality', r.locality, { shouldDirty: true });
    if (r.address1) form.setValue('address1', r.address1, { shouldDirty: true });
    if (r.latitude !== null && r.longitude !== null) {
      form.setValue('latitude', r.latitude, { shouldDirty: true });
      form.setValue('longitude', r.longitude, { shouldDirty: true });
    }
    setLookup({ busy: false, message: null });
  };
  return { lookup, runLookup };
}

/** The primary category and the additional ones (the primary is not offered twice). */
function CategoryFields({
  form,
  data,
}: {
  form: UseFormReturn<Values>;
  data: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const fe = form.formState.errors;
  return (
    <>
      <Select
        label={storeInfoLabels.primary_category}
        searchable
        clearable
        placeholder={t('storeInfo.categoryPlaceholder')}
        data={data}
        limit={100}
        value={form.watch('primary_category_id')}
        onChange={(v) => form.setValue('primary_category_id', v, { shouldDirty: true })}
        error={fe.primary_category_id?.message}
      />
      <MultiSelect
        label={storeInfoLabels.additional_categories}
        searchable
        clearable
        placeholder={t('storeInfo.categoryPlaceholder')}
        data={data.filter((c) => c.value !== form.watch('primary_category_id'))}
        limit={100}
        value={form.watch('additional_categorie_id')}
        onChange={(v) => form.setValue('additional_categorie_id', v, { shouldDirty: true })}
        error={fe.additional_categorie_id?.message}
      />
    </>
  );
}

/**
 * Core information (spec 2 §2, §3, §5, §7): name ("Entity" counts as empty), postal code with
 * its lookup, the administrative area (a choice list for JP and VN), locality, address lines,
 * the main phone normalised to an international number, categories, corporate code; and the
 * map slot (the marker follows the address and a click; reference only).
 */
export function CoreForm({
  userId,
  core,
  prefectures,
  categories,
  lookupPostalCode,
  map,
  aside,
}: {
  userId: number;
  core: CoreInformation;
  /** The administrative-area choices by region code (JP, VN); other regions type it. */
  prefectures?: Record<string, string[]>;
  /** Google's categories to choose from (the store's own are always offered). */
  categories?: CategoryOption[];
  lookupPostalCode?: (code: string) => Promise<PostalAnswer | null>;
  /** The map, given the marker and a setter (the marker is the form's latitude/longitude). */
  map?: (
    marker: { latitude: number | null; longitude: number | null },
    onPick: (lat: number, lng: number) => void,
  ) => ReactNode;
  aside?: ReactNode;
}) {
  const { t } = useTranslation();
  const region = core.address.regionCode ?? 'JP';
  const form = useForm<Values>({
    defaultValues: defaultsOf(core, region),
  });
  const { save, saving, errors, onSubmit } = useSaveSection(
    userId,
    coreInformationRequest,
    saveCoreCall,
    form,
  );
  const { lookup, runLookup } = usePostalLookup(form, lookupPostalCode);
  const fe = form.formState.errors;

  // The store's own categories are always choosable, with the names Google gave them.
  const known = new Map<string, string>();
  for (const c of [core.primary_category, ...(core.additional_categories ?? [])])
    if (c) known.set(c.name, c.displayName || c.name);
  for (const c of categories ?? []) known.set(c.value, c.label);
  const categoryData = [...known].map(([value, label]) => ({ value, label }));
  const choices = prefectures?.[form.watch('region_code')] ?? null;

  const submit = onSubmit(async (v) => {
    let phone: string | null = null;
    if (v.main_phone.trim()) {
      const p = parsePhoneNumberFromString(
        v.main_phone.trim(),
        (v.region_code || 'JP') as CountryCode,
      );
      if (!p?.isValid()) {
        form.setError('main_phone', {
          type: 'validate',
          message: t('storeInfo.phoneInvalid'),
        });
        return;
      }
      phone = p.number;
    }
    await save(coreBodyOf(v, phone, categoryData));
  });

  const text = (name: keyof Values & keyof typeof storeInfoLabels, required = false) => (
    <TextInput
      label={storeInfoLabels[name]}
      withAsterisk={required}
      error={fe[name]?.message}
      {...form.register(name)}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label={t('storeInfo.coreTitle')}>
      <Stack>
        <ErrorAlert lines={errors} />
        {text('name', true)}
        <Group align="flex-end" gap="xs">
          <TextInput
            label={storeInfoLabels.postal_code}
            withAsterisk
            placeholder="150-0002"
            error={fe.postal_code?.message ?? lookup.message}
            {...form.register('postal_code')}
          />
          {lookupPostalCode && (
            <Button variant="default" loading={lookup.busy} onClick={() => void runLookup()}>
              {t('storeInfo.postalLookup')}
            </Button>
          )}
        </Group>
        {choices ? (
          <Select
            label={storeInfoLabels.prefecture}
            withAsterisk
            searchable
            data={choices}
            value={form.watch('prefecture') || null}
            onChange={(v) => form.setValue('prefecture', v ?? '', { shouldDirty: true })}
            error={fe.prefecture?.message}
          />
        ) : (
          text('prefecture', true)
        )}
        {text('locality')}
        {text('address1', true)}
        {text('address2', true)}
        {text('address3')}
        <TextInput
          label={storeInfoLabels.main_phone}
          type="tel"
          placeholder="03-1234-5678"
          error={fe.main_phone?.message}
          {...form.register('main_phone')}
        />
        <CategoryFields form={form} data={categoryData} />
        {text('corporate_code')}
        {map && (
          <Grid>
            <Grid.Col span={12}>
              {map(
                { latitude: form.watch('latitude'), longitude: form.watch('longitude') },
                (lat, lng) => {
                  form.setValue('latitude', lat, { shouldDirty: true });
                  form.setValue('longitude', lng, { shouldDirty: true });
                },
              )}
            </Grid.Col>
          </Grid>
        )}
        {aside}
        <Group justify="flex-end">
          <Button type="submit" loading={saving}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
