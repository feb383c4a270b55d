import { ActionIcon, Group, Image, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { productJa } from '@tenpo/domain';
import { Controller, type UseFormReturn } from 'react-hook-form';
import type { ProductFields } from '../api/products-api';

const L = productJa.labels;

/** The price: one amount, or with the switch on a range from a minimum to a maximum. */
export function PriceFields({
  form,
  range,
  err,
}: {
  form: UseFormReturn<ProductFields>;
  range: boolean;
  err: (k: keyof ProductFields) => string | undefined;
}) {
  return (
    <>
      <Controller
        control={form.control}
        name="priceRange"
        render={({ field }) => (
          <Switch
            label={productJa.priceRangeSwitch}
            checked={field.value}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
          />
        )}
      />
      {range ? (
        <Group grow align="flex-start">
          <TextInput
            label={L.minimumPrice}
            withAsterisk
            inputMode="numeric"
            rightSection={productJa.yen}
            {...form.register('minimumPrice')}
            error={err('minimumPrice')}
          />
          <TextInput
            label={L.maximumPrice}
            withAsterisk
            inputMode="numeric"
            rightSection={productJa.yen}
            {...form.register('maximumPrice')}
            error={err('maximumPrice')}
          />
        </Group>
      ) : (
        <TextInput
          label={L.productPrice}
          inputMode="numeric"
          rightSection={productJa.yen}
          {...form.register('productPrice')}
          error={err('productPrice')}
        />
      )}
    </>
  );
}

/** The product's stored photos, each with a button that drops it from the product. */
export function KeptPhotos({
  kept,
  productName,
  onRemove,
}: {
  kept: string[];
  productName: string;
  onRemove: (url: string) => void;
}) {
  if (kept.length === 0) return null;
  return (
    <SimpleGrid cols={5} spacing="xs">
      {kept.map((url, i) => (
        <Stack key={url} gap={2} align="center">
          <Image
            src={url}
            alt={productJa.photoAlt(productName, i + 1)}
            h={64}
            w={64}
            fit="cover"
            radius="sm"
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={productJa.removePhoto(i + 1)}
            onClick={() => onRemove(url)}
          >
            ×
          </ActionIcon>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
