import { useState } from 'react';
import {
  ActionIcon,
  Button,
  FileInput,
  Group,
  Image,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  PRODUCT_BUTTON_VALUES,
  PRODUCT_LINK_BUTTONS,
  PRODUCT_MAX_FILES,
  PRODUCT_NEW_CATEGORY_ID,
  productFormSchema,
  productJa,
  type Product,
  type ProductCategory,
} from '@tenpo/domain';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines } from '@/lib/api-client';
import { saveProductCall, type ProductFields } from '../api/products-api';

const L = productJa.labels;

const valuesOf = (p: Product | null): ProductFields => ({
  productName: p?.productName ?? '',
  category: p ? String(p.category_id) : '',
  productCategory: '',
  priceRange: p?.priceRange ?? false,
  productPrice:
    p?.productPrice === null || p?.productPrice === undefined ? '' : String(p.productPrice),
  minimumPrice: p?.priceRange && p.minimumPrice !== null ? String(p.minimumPrice) : '',
  maximumPrice: p?.priceRange && p.maximumPrice !== null ? String(p.maximumPrice) : '',
  productDescription: p?.productDescription ?? '',
  valueButton: String(p?.valueButton ?? 0),
  linkForButton: p?.linkForButton ?? '',
});

/**
 * The add-product modal (spec 2 §2, §3, §5; ADR 0046), also used to edit a product. The form is
 * judged by the domain's productFormSchema before it is sent, and the server's field errors are
 * shown under their fields.
 */
export function ProductFormModal({
  userId,
  product,
  categories,
  opened,
  onClose,
  onSaved,
}: {
  userId: number;
  /** null: a new product. */
  product: Product | null;
  categories: ProductCategory[];
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<ProductFields>({ defaultValues: valuesOf(product) });
  const [kept, setKept] = useState<string[]>(product?.files.map((f) => f.url) ?? []);
  const [added, setAdded] = useState<File[]>([]);
  const [lines, setLines] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const category = form.watch('category');
  const range = form.watch('priceRange');
  const button = Number(form.watch('valueButton'));
  const fe = form.formState.errors;
  const err = (k: keyof ProductFields) => fe[k]?.message;

  const submit = form.handleSubmit(async (v) => {
    setLines(null);
    const checked = productFormSchema.safeParse(v);
    const files = [...kept, ...added];
    let bad = false;
    if (!checked.success) {
      for (const issue of checked.error.issues)
        form.setError(String(issue.path[0]) as keyof ProductFields, {
          type: 'validate',
          message: issue.message,
        });
      bad = true;
    }
    if (files.length > PRODUCT_MAX_FILES) {
      setLines([productJa.tooManyFiles]);
      bad = true;
    }
    if (bad) return;
    setSaving(true);
    try {
      const r = await saveProductCall(userId, product?.id ?? null, v, files);
      notifications.show({
        color: 'teal',
        message: r.message ?? (product ? productJa.updated : productJa.created),
        autoClose: 2000,
      });
      onSaved();
    } catch (e) {
      if (e instanceof ApiError)
        for (const [field, messages] of Object.entries(e.fieldErrors()))
          if (messages[0] && field in v)
            form.setError(field as keyof ProductFields, { type: 'server', message: messages[0] });
      setLines(errorLines(e));
    } finally {
      setSaving(false);
    }
  });

  const categoryOptions = [
    { value: String(PRODUCT_NEW_CATEGORY_ID), label: productJa.newCategory },
    ...categories.map((c) => ({ value: String(c.id), label: c.name })),
  ];
  const buttonOptions = PRODUCT_BUTTON_VALUES.map((b) => ({
    value: String(b),
    label: t(`posts.buttonTypes.${b}`),
  }));

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={product ? productJa.editTitle : productJa.add}
      size="lg"
    >
      <form
        aria-label={product ? productJa.editTitle : productJa.add}
        noValidate
        onSubmit={(e) => {
          form.clearErrors();
          void submit(e);
        }}
      >
        <Stack>
          <ErrorAlert lines={lines} />
          <TextInput
            label={L.productName}
            withAsterisk
            {...form.register('productName')}
            error={err('productName')}
          />
          <Controller
            control={form.control}
            name="category"
            render={({ field }) => (
              <Select
                label={L.category}
                withAsterisk
                data={categoryOptions}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                error={err('category')}
                allowDeselect={false}
              />
            )}
          />
          {category === String(PRODUCT_NEW_CATEGORY_ID) && (
            <TextInput
              label={L.productCategory}
              withAsterisk
              {...form.register('productCategory')}
              error={err('productCategory')}
            />
          )}
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
          <Textarea
            label={L.productDescription}
            autosize
            minRows={3}
            {...form.register('productDescription')}
            error={err('productDescription')}
          />
          <Controller
            control={form.control}
            name="valueButton"
            render={({ field }) => (
              <Select
                label={L.valueButton}
                data={buttonOptions}
                value={field.value}
                onChange={(v) => field.onChange(v ?? '0')}
                allowDeselect={false}
                error={err('valueButton')}
              />
            )}
          />
          {PRODUCT_LINK_BUTTONS.includes(button) && (
            <TextInput
              label={L.linkForButton}
              withAsterisk
              type="url"
              {...form.register('linkForButton')}
              error={err('linkForButton')}
            />
          )}
          {kept.length > 0 && (
            <SimpleGrid cols={5} spacing="xs">
              {kept.map((url, i) => (
                <Stack key={url} gap={2} align="center">
                  <Image
                    src={url}
                    alt={productJa.photoAlt(product?.productName ?? '', i + 1)}
                    h={64}
                    w={64}
                    fit="cover"
                    radius="sm"
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={productJa.removePhoto(i + 1)}
                    onClick={() => setKept((k) => k.filter((u) => u !== url))}
                  >
                    ×
                  </ActionIcon>
                </Stack>
              ))}
            </SimpleGrid>
          )}
          <FileInput
            label={L.files}
            multiple
            clearable
            accept="image/jpeg,image/png,image/gif"
            value={added}
            onChange={setAdded}
          />
          <Text size="xs" c="dimmed">
            JPEG・PNG・GIF、{PRODUCT_MAX_FILES}枚まで、1枚20MBまで
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {productJa.cancel}
            </Button>
            <Button type="submit" loading={saving}>
              {productJa.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
