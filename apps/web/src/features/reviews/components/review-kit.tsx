import { useState } from 'react';
import {
  Anchor,
  Button,
  CopyButton,
  Group,
  Image,
  List,
  Loader,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { Modal } from '@/components/ui/modal';
import { api, errorLines } from '@/lib/api-client';

type ReviewKit = {
  store_name: string;
  new_review_uri: string;
  qr_svg: string;
  rules: string[];
  card_lead: string;
};

const kitCall = async (userId: number, signal?: AbortSignal) =>
  (await api<ReviewKit>('/reviews/request-kit', { query: { user_id: userId }, signal })).data;

const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A card to print and set on the counter: the store, a neutral request, the QR code, the URL. */
function printCard(kit: ReviewKit, title: string) {
  const w = window.open('', '_blank', 'noopener=no');
  if (!w) return;
  w.document
    .write(`<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;text-align:center;margin:24mm}h1{font-size:20pt}p{font-size:13pt}
img{width:60mm;height:60mm}.url{font-size:9pt;word-break:break-all;color:#444}</style></head><body>
<h1>${escapeHtml(kit.store_name)}</h1><p>${escapeHtml(kit.card_lead)}</p>
<img alt="" src="${svgUrl(kit.qr_svg)}"><p class="url">${escapeHtml(kit.new_review_uri)}</p>
<script>window.onload=function(){window.print()}</script></body></html>`);
  w.document.close();
}

/**
 * 口コミ依頼キット (issue 25 item 8): the store's review link from Google, as a URL to copy and
 * a QR code to print or save, with what a request may not do (incentives, star conditions, staff
 * reviews, hidden sponsorship). One store at a time.
 */
export function ReviewKitButton({ storeIds }: { storeIds: number[] }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const storeId = storeIds.length === 1 ? storeIds[0] : undefined;
  const kit = useQuery({
    queryKey: ['reviews', 'kit', storeId],
    queryFn: ({ signal }) => kitCall(storeId as number, signal),
    enabled: opened && storeId !== undefined,
    staleTime: 5 * 60_000,
  });
  if (storeId === undefined) return null;
  const data = kit.data;
  return (
    <>
      <Button variant="default" size="compact-sm" onClick={() => setOpened(true)}>
        {t('reviews.kit.open')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('reviews.kit.title')}
        size="lg"
      >
        <Stack>
          <ErrorAlert lines={kit.isError ? errorLines(kit.error) : null} />
          {kit.isPending && !kit.isError && <Loader aria-label={t('reviews.kit.loading')} />}
          {data && (
            <>
              <Text size="sm">{t('reviews.kit.lead')}</Text>
              <Group align="flex-end" wrap="nowrap" gap="xs">
                <TextInput
                  label={t('reviews.kit.url')}
                  value={data.new_review_uri}
                  readOnly
                  style={{ flex: 1, minWidth: 0 }}
                  onFocus={(e) => e.currentTarget.select()}
                />
                <CopyButton value={data.new_review_uri}>
                  {({ copied, copy }) => (
                    <Button variant="light" onClick={copy}>
                      {copied ? t('reviews.kit.copied') : t('reviews.kit.copy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <Image
                src={svgUrl(data.qr_svg)}
                alt={t('reviews.kit.qrAlt', { store: data.store_name })}
                w={180}
                h={180}
                mx="auto"
              />
              <Group justify="center" gap="xs">
                <Button onClick={() => printCard(data, t('reviews.kit.title'))}>
                  {t('reviews.kit.print')}
                </Button>
                <Anchor href={svgUrl(data.qr_svg)} download={`review-qr-${storeId}.svg`} size="sm">
                  {t('reviews.kit.save')}
                </Anchor>
              </Group>
              <Text size="sm" fw={700}>
                {t('reviews.kit.rulesTitle')}
              </Text>
              <List size="sm" spacing={4}>
                {data.rules.map((r) => (
                  <List.Item key={r}>{r}</List.Item>
                ))}
              </List>
            </>
          )}
        </Stack>
      </Modal>
    </>
  );
}
