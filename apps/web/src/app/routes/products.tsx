import { useState } from 'react';
import {
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { productJa, type Product } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ui/error-alert';
import {
  categoriesCall,
  deleteProductCall,
  productKeys,
  productsCall,
} from '../../features/products/api/products-api';
import { ProductCard } from '../../features/products/components/product-card';
import { ProductFormModal } from '../../features/products/components/product-form-modal';
import { errorLines } from '../../lib/api-client';
import { usePostStoreIds } from './post-setup';
import { PageTitle } from '../../components/ui/page-title';

const ALL = 'all';

/**
 * /products (spec 2 §2; issue 11 item 4; ADR 0046): the store's catalogue, on the first selected
 * store or the user's own (not behind the store-selection guard). Tabs "すべて" and one per
 * category that holds products; cards paged by 10; the add-product modal; edit and delete (with a
 * confirm) from a card.
 */
export function ProductsRoute() {
  const { t } = useTranslation();
  const userId = usePostStoreIds()[0];
  const qc = useQueryClient();
  const [tab, setTab] = useState<string>(ALL);
  const [page, setPage] = useState(1);
  // undefined: no modal; null: a new product; else the product edited.
  const [editing, setEditing] = useState<Product | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const [deleteLines, setDeleteLines] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState(false);
  const id = userId ?? 0;
  const categoryId = tab === ALL ? null : Number(tab);

  const categories = useQuery({
    queryKey: productKeys.categories(id),
    queryFn: () => categoriesCall(id),
    enabled: userId !== undefined,
  });
  const list = useQuery({
    queryKey: productKeys.page(id, categoryId, page),
    queryFn: ({ signal }) => productsCall(id, categoryId, page, signal),
    enabled: userId !== undefined,
    placeholderData: keepPreviousData,
  });
  const tabs = (categories.data ?? []).filter((c) => c.products_count > 0);
  // A tab whose last product went away: back to all.
  if (tab !== ALL && categories.data && !tabs.some((c) => String(c.id) === tab)) {
    setTab(ALL);
    setPage(1);
  }
  const data = list.data;
  if (data && data.last_page < page) setPage(data.last_page);

  const refresh = () => qc.invalidateQueries({ queryKey: productKeys.all(id) });

  const remove = async () => {
    if (!deleting) return;
    setRemoving(true);
    setDeleteLines(null);
    try {
      const message = await deleteProductCall(id, deleting.id);
      notifications.show({ color: 'teal', message: message ?? productJa.deleted, autoClose: 2000 });
      setDeleting(null);
      await refresh();
    } catch (e) {
      setDeleteLines(errorLines(e));
    } finally {
      setRemoving(false);
    }
  };

  // The chosen tab's cards, their count and their pages.
  const shelf =
    list.isPending || categories.isPending ? (
      <Center mih={200}>
        <Loader aria-label={t('app.loading')} />
      </Center>
    ) : list.error || categories.error || !data ? (
      <ErrorAlert lines={errorLines(list.error ?? categories.error)} />
    ) : data.data.length === 0 ? (
      <Text c="dimmed">{productJa.empty}</Text>
    ) : (
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-label={productJa.title} role="list">
          {data.data.map((p) => (
            <div role="listitem" key={p.id}>
              <ProductCard
                product={p}
                onEdit={() => setEditing(p)}
                onDelete={() => {
                  setDeleteLines(null);
                  setDeleting(p);
                }}
              />
            </div>
          ))}
        </SimpleGrid>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('products.range', { total: data.total, from: data.from ?? 0, to: data.to ?? 0 })}
          </Text>
          {data.last_page > 1 && (
            <Pagination total={data.last_page} value={page} onChange={setPage} />
          )}
        </Group>
      </Stack>
    );

  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <PageTitle>{productJa.title}</PageTitle>
        <Button onClick={() => setEditing(null)} disabled={!categories.data}>
          {productJa.add}
        </Button>
      </Group>
      <Tabs
        value={tab}
        onChange={(v) => {
          setTab(v ?? ALL);
          setPage(1);
        }}
      >
        <Tabs.List>
          <Tabs.Tab value={ALL}>{productJa.all}</Tabs.Tab>
          {tabs.map((c) => (
            <Tabs.Tab key={c.id} value={String(c.id)}>
              {c.name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* Every tab controls its panel (WAI-ARIA tabs); only the chosen one holds the cards. */}
        {[ALL, ...tabs.map((c) => String(c.id))].map((value) => (
          <Tabs.Panel key={value} value={value} pt="md">
            {value === tab && shelf}
          </Tabs.Panel>
        ))}
      </Tabs>
      {editing !== undefined && userId !== undefined && categories.data && (
        <ProductFormModal
          key={editing?.id ?? 'new'}
          userId={userId}
          product={editing}
          categories={categories.data}
          opened
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void refresh();
          }}
        />
      )}
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={productJa.deleteTitle}
      >
        <Stack>
          <ErrorAlert lines={deleteLines} />
          <Text>{deleting ? productJa.deleteText(deleting.productName) : ''}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {productJa.cancel}
            </Button>
            <Button color="red" loading={removing} onClick={() => void remove()}>
              {productJa.delete}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
