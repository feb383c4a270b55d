import { useEffect, useRef, useState } from 'react';
import { Anchor, Avatar, Badge, Button, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { policyViolationJa, type ReviewReplyState, type ReviewView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { tokyoDateTime } from '@/lib/format';
import { readReviewDraft } from '../hooks/use-reply-draft';
import { ApprovalBox } from './approval-box';
import { DeleteReplyDialog } from './delete-reply';
import { ReplyEditor } from './reply-editor';

const STATE_COLOR: Record<ReviewReplyState, string> = {
  pending: 'yellow',
  live: 'teal',
  rejected: 'red',
};

/** An ISO instant as the screens show it (Tokyo); as given when it cannot be read. */
const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : tokyoDateTime(d);
};

/** The rating as stars, named for a screen reader 「★4（5段階中）」. */
export function Stars({ rating }: { rating: number }) {
  const { t } = useTranslation();
  return (
    <Text span role="img" aria-label={t('reviews.card.stars', { n: rating })} c="yellow.7" fz="lg">
      {'★'.repeat(rating)}
      <Text span inherit c="gray.4">
        {'★'.repeat(5 - rating)}
      </Text>
    </Text>
  );
}

function ReviewHead({ review }: { review: ReviewView }) {
  const { t } = useTranslation();
  const name = review.is_anonymous ? t('reviews.card.anonymous') : review.reviewer_name;
  return (
    <Stack gap={4}>
      <Text fw={700} size="sm">
        {review.store_name}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Avatar
          src={review.is_anonymous ? null : review.reviewer_photo_url}
          alt=""
          size="sm"
          radius="xl"
        />
        <Text size="sm">{name}</Text>
        <Stars rating={review.star_rating} />
        <Text size="xs" c="dimmed">
          {t('reviews.card.written', { at: when(review.created_at) })}
        </Text>
      </Group>
    </Stack>
  );
}

function ReviewMedia({ media }: { media: ReviewView['media'] }) {
  const { t } = useTranslation();
  if (media.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label={t('reviews.card.media')}>
      {media.map((m, i) => (
        <Anchor
          key={`${m.thumbnail_url}:${i}`}
          href={m.video_url ?? m.thumbnail_url}
          target="_blank"
          rel="noreferrer"
          aria-label={t(m.video_url ? 'reviews.card.video' : 'reviews.card.photo', { n: i + 1 })}
        >
          <Image
            src={m.thumbnail_url}
            alt=""
            w={72}
            h={72}
            radius="sm"
            fit="cover"
            loading="lazy"
          />
        </Anchor>
      ))}
    </Group>
  );
}

function ReplyBox({ reply }: { reply: NonNullable<ReviewView['reply']> }) {
  const { t } = useTranslation();
  return (
    <Paper bg="gray.0" p="sm" radius="sm" data-testid="review-reply">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {t('reviews.card.replyTitle')}
          </Text>
          <Badge color={STATE_COLOR[reply.state]} variant="light">
            {t(`reviews.card.states.${reply.state}`)}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('reviews.card.replyAt', { at: when(reply.updated_at) })}
          </Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {reply.comment}
        </Text>
        {reply.state === 'rejected' && reply.policy_violation && (
          <Text size="sm" c="red">
            {t('reviews.card.rejectedReason', {
              reason: policyViolationJa(reply.policy_violation),
            })}
          </Text>
        )}
        {reply.state !== 'live' && (
          <Text size="xs" c="dimmed">
            {t(`reviews.card.stateHints.${reply.state}`)}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * One review (docs/product/reviews.md): the store, the stars, the reviewer, the date, the text,
 * its photos and the reply with its state; 返信する / 返信を編集 open the editor under it (opened
 * at once when a draft was kept), 返信を削除 asks first.
 */
export function ReviewCard({ review }: { review: ReviewView }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(() => readReviewDraft(review.id) !== null);
  // Editing the request for approval before approving it (ADR 0093), not a reply of one's own.
  const [approving, setApproving] = useState(false);
  const [focusEditor, setFocusEditor] = useState(false);
  const [removing, setRemoving] = useState(false);
  const replyButton = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    // Closing the editor gives the focus back to the button that opened it.
    if (!editing && refocus) {
      replyButton.current?.focus();
      setRefocus(false);
    }
  }, [editing, refocus]);
  const hasComment = review.comment !== null && review.comment.trim() !== '';
  const draftKept = !editing && readReviewDraft(review.id) !== null;

  return (
    <Paper withBorder p="md" radius="md" component="article" data-testid={`review-${review.id}`}>
      <Stack gap="sm">
        <ReviewHead review={review} />
        <Text size="sm" c={hasComment ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-line' }}>
          {hasComment ? review.comment : t('reviews.card.noComment')}
        </Text>
        <ReviewMedia media={review.media} />
        {review.reply && <ReplyBox reply={review.reply} />}
        {review.approval && !(editing && approving) && (
          <ApprovalBox
            approval={review.approval}
            onEdit={() => {
              setApproving(true);
              setFocusEditor(true);
              setEditing(true);
            }}
          />
        )}
        {editing ? (
          <ReplyEditor
            review={review}
            autoFocus={focusEditor}
            approving={approving && !!review.approval?.can_decide}
            onClose={() => {
              setEditing(false);
              setApproving(false);
              setRefocus(true);
            }}
          />
        ) : (
          <Group gap="xs" wrap="wrap">
            <Button
              ref={replyButton}
              size="compact-sm"
              variant="light"
              onClick={() => {
                setApproving(false);
                setFocusEditor(true);
                setEditing(true);
              }}
            >
              {review.reply ? t('reviews.card.edit') : t('reviews.card.reply')}
            </Button>
            {review.reply && (
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={() => setRemoving(true)}
              >
                {t('reviews.card.delete')}
              </Button>
            )}
            {draftKept && (
              <Text size="xs" c="blue.8">
                {t('reviews.card.draftKept')}
              </Text>
            )}
          </Group>
        )}
      </Stack>
      {review.reply && (
        <DeleteReplyDialog review={review} opened={removing} onClose={() => setRemoving(false)} />
      )}
    </Paper>
  );
}
