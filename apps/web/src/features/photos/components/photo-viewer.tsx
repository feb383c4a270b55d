import { useEffect } from 'react';
import { ActionIcon, Center, Group, Image, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import type { PhotoItem } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/**
 * The full-screen viewer (spec 2 §4): opens at the clicked item; the arrows, or the left and
 * right keys, move through the library (round the ends).
 */
export function PhotoViewer({
  items,
  index,
  onIndex,
  onClose,
}: {
  items: readonly PhotoItem[];
  index: number | null;
  onIndex: (i: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const n = items.length;
  const open = index !== null && n > 0;
  const at = open ? Math.min(index, n - 1) : 0;
  const item = items[at];
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft') onIndex((at - 1 + n) % n);
      if (e.key === 'ArrowRight') onIndex((at + 1) % n);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, at, n, onIndex]);
  return (
    <Modal
      opened={open}
      onClose={onClose}
      fullScreen
      title={t('media.viewer')}
      closeButtonProps={{ 'aria-label': t('media.close') }}
      styles={{ body: { height: 'calc(100% - 60px)' } }}
    >
      {item && (
        <Group h="100%" wrap="nowrap" gap="md" align="center">
          <ActionIcon
            size="xl"
            variant="default"
            aria-label={t('media.previous')}
            onClick={() => onIndex((at - 1 + n) % n)}
            disabled={n < 2}
          >
            ‹
          </ActionIcon>
          <Center style={{ flex: 1, height: '100%', flexDirection: 'column', gap: 8 }}>
            {item.gmb_media_type === 'VIDEO' && /\.(mp4|mov)(\?|$)/i.test(item.photo_url ?? '') ? (
              <video
                src={item.photo_url ?? ''}
                controls
                style={{ maxWidth: '100%', maxHeight: '80vh' }}
              />
            ) : (
              <Image
                src={item.photo_url}
                alt={t('media.position', { n: at + 1, total: n })}
                fit="contain"
                mah="80vh"
                maw="100%"
              />
            )}
            <Text size="sm" aria-live="polite">
              {t('media.position', { n: at + 1, total: n })}
            </Text>
          </Center>
          <ActionIcon
            size="xl"
            variant="default"
            aria-label={t('media.next')}
            onClick={() => onIndex((at + 1) % n)}
            disabled={n < 2}
          >
            ›
          </ActionIcon>
        </Group>
      )}
    </Modal>
  );
}
