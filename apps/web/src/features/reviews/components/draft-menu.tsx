import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReviewDraft, ReviewDraftSource, ReviewView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { draftCall, draftKeys, templatesCall } from '../api/drafts-api';

/** Whether the model's drafts are on changes with the server's configuration only. */
const TEMPLATES_STALE_MS = 5 * 60_000;

/**
 * Above the reply's field (ADR 0091): 「テンプレートから」 and, when a model is configured,
 * 「AIで下書き」. The draft goes into the field (asking first when it holds text) to be read,
 * edited and sent as any reply: it is checked as it is typed and again when sent.
 */
export function DraftMenu({
  review,
  current,
  onDraft,
}: {
  review: ReviewView;
  /** The field's text now: a draft replaces it only once confirmed. */
  current: string;
  onDraft: (text: string) => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<ReviewDraftSource | null>(null);
  const [made, setMade] = useState<ReviewDraft | null>(null);
  const templates = useQuery({
    queryKey: draftKeys.templates(review.user_id),
    queryFn: ({ signal }) => templatesCall(review.user_id, signal),
    staleTime: TEMPLATES_STALE_MS,
  });
  const make = useMutation({
    mutationFn: (source: ReviewDraftSource) => draftCall(review, source),
    onSuccess: (d) => {
      onDraft(d.comment);
      setMade(d);
    },
  });
  const start = (source: ReviewDraftSource) => {
    setMade(null);
    if (current.trim() !== '') setAsking(source);
    else make.mutate(source);
  };
  const busy = make.isPending;
  return (
    <Stack gap={6}>
      <Group gap="xs" role="group" aria-label={t('reviews.reply.draft.label')}>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => start('template')}
          loading={busy && make.variables === 'template'}
          disabled={busy || asking !== null}
        >
          {t('reviews.reply.draft.fromTemplate')}
        </Button>
        {templates.data?.llm_enabled && (
          <Button
            size="compact-sm"
            variant="light"
            color="grape"
            onClick={() => start('llm')}
            loading={busy && make.variables === 'llm'}
            disabled={busy || asking !== null}
          >
            {t('reviews.reply.draft.ai')}
          </Button>
        )}
      </Group>
      {asking && (
        <Group gap="xs" role="alertdialog" aria-label={t('reviews.reply.draft.replaceTitle')}>
          <Text size="sm">{t('reviews.reply.draft.replaceTitle')}</Text>
          <Button
            size="compact-sm"
            data-autofocus
            onClick={() => {
              const source = asking;
              setAsking(null);
              make.mutate(source);
            }}
          >
            {t('reviews.reply.draft.replace')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setAsking(null)}>
            {t('reviews.reply.draft.cancel')}
          </Button>
        </Group>
      )}
      <ErrorAlert lines={make.isError ? errorLines(make.error) : null} />
      {made && !make.isError && (
        <Text size="xs" c="dimmed" role="status">
          {made.source === 'llm'
            ? t('reviews.reply.draft.madeAi', { model: made.model ?? '' })
            : t('reviews.reply.draft.madeTemplate')}
        </Text>
      )}
    </Stack>
  );
}
