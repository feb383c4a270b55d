import { useState } from 'react';
import { ActionIcon, Group, Image, Stack, Text } from '@mantine/core';
import { extOf, mediaKindOf } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/** A post's media, one at a time with previous / next (spec 2 §2 media carousel). */
export function MediaCarousel({ urls }: { urls: readonly string[] }) {
  const { t } = useTranslation();
  const [i, setI] = useState(0);
  if (urls.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('posts.list.noMedia')}
      </Text>
    );
  const at = Math.min(i, urls.length - 1);
  const url = urls[at] ?? '';
  const video = mediaKindOf(extOf(url.split(/[?#]/)[0] ?? '')) === 'video';
  return (
    <Stack gap={2} align="center" w={120}>
      {video ? (
        <video src={url} muted controls style={{ width: 120, height: 80, objectFit: 'cover' }} />
      ) : (
        <Image
          src={url}
          alt={`${at + 1} / ${urls.length}`}
          w={120}
          h={80}
          fit="cover"
          radius="sm"
        />
      )}
      {urls.length > 1 && (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            size="xs"
            variant="subtle"
            aria-label={t('posts.list.previous')}
            onClick={() => setI((at - 1 + urls.length) % urls.length)}
          >
            ‹
          </ActionIcon>
          <Text size="xs">
            {at + 1} / {urls.length}
          </Text>
          <ActionIcon
            size="xs"
            variant="subtle"
            aria-label={t('posts.list.next')}
            onClick={() => setI((at + 1) % urls.length)}
          >
            ›
          </ActionIcon>
        </Group>
      )}
    </Stack>
  );
}
