import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { PRODUCT_MAX_FILES, productFormSchema, productJa, type Product } from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { ApiError, errorLines } from '@/lib/api-client';
import { saveProductCall, type ProductFields } from '../api/products-api';

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
 * The product form's state: its fields, the photos kept and added, and a submit that judges
 * the form by the domain's productFormSchema before it is sent and shows the server's field
 * errors under their fields.
 */
export function useProductForm(userId: number, product: Product | null, onSaved: () => void) {
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

  return {
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
  };
}
