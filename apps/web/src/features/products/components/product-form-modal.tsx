import { Button, FileInput, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import {
  PRODUCT_BUTTONS,
  PRODUCT_LINK_BUTTONS,
  PRODUCT_MAX_FILES,
  PRODUCT_NEW_CATEGORY_ID,
  productJa,
  type Product,
  type ProductCategory,
} from '@tenpo/domain';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useProductForm } from '../hooks/use-product-form';
import { KeptPhotos, PriceFields } from './product-form-fields';

const L = productJa.labels;

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
  const {
    form,
    kept,
    setKept,
    added,
    setAdded,
    lines,
    saving,
    category,
    range,
    button,
    err,
    submit,
  } = useProductForm(userId, product, onSaved);

  const categoryOptions = [
    { value: String(PRODUCT_NEW_CATEGORY_ID), label: productJa.newCategory },
    ...categories.map((c) => ({ value: String(c.id), label: c.name })),
  ];
  // PRODUCT_BUTTONS' values (PRODUCT_BUTTON_VALUES, typed as literals): keys of posts.buttonTypes.
  const buttonOptions = Object.values(PRODUCT_BUTTONS).map((b) => ({
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
          <PriceFields form={form} range={range} err={err} />
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
          <KeptPhotos
            kept={kept}
            productName={product?.productName ?? ''}
            onRemove={(url) => setKept((k) => k.filter((u) => u !== url))}
          />
          <FileInput
            label={L.files}
            multiple
            clearable
            accept="image/jpeg,image/png,image/gif"
            value={added}
            onChange={setAdded}
          />
          <Text size="xs" c="dimmed">
            {t('products.photosHint', { max: PRODUCT_MAX_FILES })}
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
