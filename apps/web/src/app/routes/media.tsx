import { useState } from 'react';
import { Alert, Button, Center, Group, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PHOTO_REFRESH_MS, type PhotoItem } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { photoKeys, photosCall } from '../../features/photos/api/photos-api';
import { DeletePhotoDialogs } from '../../features/photos/components/delete-photo';
import { PhotoGallery } from '../../features/photos/components/photo-gallery';
import { PhotoViewer } from '../../features/photos/components/photo-viewer';
import { UploadPhotosModal } from '../../features/photos/components/upload-photos-modal';
import { errorLines } from '../../lib/api-client';
import { usePaymentState } from '../payment-state';
import { usePostStoreIds } from './post-setup';
import { PageTitle } from '../../components/ui/page-title';

/**
 * /media (spec 2 §2, §4): the photo library of the first selected store (the user's own when
 * none is selected), refreshed every 30 s; the viewer, the delete dialogs and the upload modal.
 */
export function MediaRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const userId = usePostStoreIds()[0];
  return (
    <Stack>
      <PageTitle>{t('media.title')}</PageTitle>
      <PaymentGate state={payment}>
        {userId !== undefined && <Library key={userId} userId={userId} />}
      </PaymentGate>
    </Stack>
  );
}

function Library({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: photoKeys.list(userId),
    queryFn: () => photosCall(userId),
    refetchInterval: PHOTO_REFRESH_MS,
  });
  const [viewing, setViewing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<PhotoItem | null>(null);
  const [uploading, setUploading] = useState(false);
  const items = list.data ?? [];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => setUploading(true)}>{t('media.upload')}</Button>
      </Group>
      {list.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : list.isError && !list.data ? (
        <Alert color="red" role="alert">
          {errorLines(list.error).join('\n')}
        </Alert>
      ) : (
        <PhotoGallery items={items} onOpen={setViewing} onDelete={setDeleting} />
      )}
      <PhotoViewer
        items={items}
        index={viewing}
        onIndex={setViewing}
        onClose={() => setViewing(null)}
      />
      <DeletePhotoDialogs userId={userId} target={deleting} onClose={() => setDeleting(null)} />
      <UploadPhotosModal userId={userId} opened={uploading} onClose={() => setUploading(false)} />
    </Stack>
  );
}
