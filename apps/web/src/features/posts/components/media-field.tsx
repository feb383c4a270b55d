import { ActionIcon, Alert, Badge, Box, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { MEDIA_RULES, publisherByKey, type PublisherKey } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import type { PostMedia } from '../media/read-media';

// The pickers offer images and videos, HEIC and TIFF included; what a channel refuses is
// explained by checkMedia's format message, which names the channel's list (spec 2 §5).
const ACCEPT = {
  'image/*': ['.jpg', '.jpeg', '.png', '.gif', '.bmp', '.tif', '.tiff', '.heic', '.heif'],
  'video/*': ['.mp4', '.mov'],
};

/**
 * The post form's media: a dropzone with the channel's count display (count / max, spec 2 §9),
 * the previews with a remove button each (on a channel that takes one file, such as Google,
 * removing clears all, spec 2 §4), and the media messages, each once.
 */
export function MediaField({
  channel,
  items,
  reading,
  errors,
  onAdd,
  onRemove,
}: {
  channel: PublisherKey;
  items: readonly PostMedia[];
  reading: boolean;
  errors: readonly string[];
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
}) {
  const { t } = useTranslation();
  const rules = MEDIA_RULES[channel];
  const label = publisherByKey(channel)?.label ?? channel;
  const over = items.length > rules.maxCount;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={500} size="sm">
          {t('posts.form.media')}
        </Text>
        <Badge
          variant="light"
          color={over ? 'red' : 'gray'}
          data-testid="media-count"
          aria-label={`${t('posts.form.media')} ${items.length} / ${rules.maxCount}`}
        >
          {t('posts.form.mediaCount', { count: items.length, max: rules.maxCount })}
        </Badge>
      </Group>
      <Dropzone
        onDrop={onAdd}
        onReject={(rej) => onAdd(rej.map((r) => r.file))}
        accept={ACCEPT}
        multiple
        loading={reading}
        aria-label={t('posts.form.media')}
        // The picker itself (a visually hidden input) carries the name too.
        inputProps={{ 'aria-label': t('posts.form.media') }}
      >
        <Stack align="center" gap={4} py="sm">
          <Text size="sm" ta="center">
            {t('posts.form.drop')}
          </Text>
          <Text size="xs" c="dimmed" ta="center">
            {t('posts.form.dropHint', {
              label,
              formats: rules.extensions.join(', '),
              max: rules.maxCount,
            })}
          </Text>
        </Stack>
      </Dropzone>
      {reading && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="xs">{t('posts.form.reading')}</Text>
        </Group>
      )}
      {items.length > 0 && (
        <Group gap="sm" data-testid="media-previews">
          {items.map((m) => (
            <Box key={m.key} pos="relative" w={112}>
              {m.meta.kind === 'video' ? (
                <video
                  src={m.preview}
                  muted
                  style={{ width: 112, height: 84, objectFit: 'cover', borderRadius: 4 }}
                />
              ) : (
                <Image src={m.preview} alt={m.meta.name} w={112} h={84} radius="sm" fit="cover" />
              )}
              <Text size="xs" truncate title={m.meta.name}>
                {m.meta.name}
              </Text>
              <ActionIcon
                pos="absolute"
                top={4}
                right={4}
                size="sm"
                color="red"
                variant="filled"
                aria-label={`${m.meta.name} ${t('posts.form.removeMedia')}`}
                onClick={() => onRemove(m.key)}
              >
                ×
              </ActionIcon>
            </Box>
          ))}
        </Group>
      )}
      {rules.maxCount === 1 && items.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('posts.form.removesAll', { label })}
        </Text>
      )}
      {errors.length > 0 && (
        <Alert color="red" variant="light" p="xs" data-testid="media-errors">
          <Stack gap={2}>
            {errors.map((e) => (
              <Text key={e} size="sm" c="red">
                {e}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
