import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Image, Stack, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { Dropzone } from '@mantine/dropzone';
import { IMAGE_MIME_TYPES, IMAGE_SIZE_LIMIT_KB } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { imageFileError } from './image-file';

/** The agency's logo upload dialog: one image file, saved or cancelled (spec 3 §2). */
export function LogoUploadDialog({
  opened,
  onClose,
  onSave,
}: {
  opened: boolean;
  onClose: () => void;
  onSave: (file: File) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const pick = (f: File | undefined) => {
    if (!f) return;
    const err = imageFileError(f);
    setError(err);
    setFile(err ? null : f);
  };
  const close = () => {
    setFile(null);
    setError(null);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('account.logoDialogTitle')}>
      <Stack>
        <Dropzone
          onDrop={(files) => pick(files[0])}
          onReject={(rej) => pick(rej[0]?.file)}
          // The picker offers only the images the server takes; a drop of anything else is
          // rejected and explained by imageFileError.
          accept={[...IMAGE_MIME_TYPES]}
          multiple={false}
          aria-label={t('account.logo')}
          // The picker itself (a visually hidden input) carries the name too.
          inputProps={{ 'aria-label': t('account.logo') }}
        >
          <Stack align="center" gap={4} py="md">
            {preview ? (
              <Image src={preview} alt={t('layout.logoAlt')} h={96} w="auto" fit="contain" />
            ) : null}
            <Text size="sm" ta="center">
              {t('account.logoDrop')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('account.logoHint', { kb: IMAGE_SIZE_LIMIT_KB })}
            </Text>
          </Stack>
        </Dropzone>
        <ErrorAlert lines={error ? [error] : null} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('actions.cancel')}
          </Button>
          <Button
            disabled={!file}
            loading={saving}
            onClick={() => {
              if (!file) return;
              setSaving(true);
              void onSave(file).finally(() => {
                setSaving(false);
                setFile(null);
              });
            }}
          >
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
