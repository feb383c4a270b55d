import { ActionIcon, Badge, Box, Card, Image, SimpleGrid, Text } from '@mantine/core';
import type { PhotoItem } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '@/components/ui/icons';

const STATE_COLOR = { sending: 'blue', failed: 'red', local: 'gray' } as const;

/** The library as a grid (spec 2 §2): a click opens the viewer there; each has its delete. */
export function PhotoGallery({
  items,
  onOpen,
  onDelete,
}: {
  items: readonly PhotoItem[];
  onOpen: (index: number) => void;
  onDelete: (item: PhotoItem) => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0)
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('media.empty')}
      </Text>
    );
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 5 }} spacing="md" role="list">
      {items.map((p, i) => (
        <Card key={p.id} withBorder padding={0} radius="md" role="listitem" data-testid="photo">
          <Box
            component="button"
            type="button"
            onClick={() => onOpen(i)}
            aria-label={t('media.open', { n: i + 1 })}
            style={{ border: 0, padding: 0, cursor: 'zoom-in', background: 'none' }}
          >
            <Image src={p.photo_url} alt="" h={160} fit="cover" />
          </Box>
          <Box p={6} style={{ display: 'flex', alignItems: 'center', gap: 6, minHeight: 36 }}>
            {p.gmb_media_type === 'VIDEO' && (
              <Badge size="xs" variant="light">
                {t('media.video')}
              </Badge>
            )}
            {p.sync_state !== 'synced' && (
              <Badge size="xs" color={STATE_COLOR[p.sync_state]}>
                {t(`media.states.${p.sync_state}`)}
              </Badge>
            )}
            <ActionIcon
              ml="auto"
              variant="subtle"
              color="red"
              aria-label={t('media.remove', { n: i + 1 })}
              onClick={() => onDelete(p)}
            >
              <TrashIcon />
            </ActionIcon>
          </Box>
          {/* The reason as text, for touch and keyboard alike (issue 23 item 9), not a tooltip. */}
          {p.sync_state !== 'synced' && p.sync_error && (
            <Text size="xs" c={p.sync_state === 'failed' ? 'red' : 'dimmed'} px={6} pb={6}>
              {p.sync_error}
            </Text>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
