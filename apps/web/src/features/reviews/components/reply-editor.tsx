import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { REVIEW_REPLY_MAX_BYTES, reviewJa, type ReviewView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines } from '@/lib/api-client';
import { TOAST_MS } from '@/lib/timing';
import { approvalKeys, approveCall, requestApprovalCall } from '../api/approvals-api';
import { replyCall, reviewKeys } from '../api/reviews-api';
import { useReplyCheck } from '../hooks/use-reply-check';
import { useReplyDraft } from '../hooks/use-reply-draft';
import { DraftMenu } from './draft-menu';
import { FindingsList } from './findings-list';

/** Why a send was refused: lines under the field (a 422 on `comment`), or above the buttons. */
type Refusal = { lines: string[]; field: boolean; blocked: boolean };

const refusalOf = (e: unknown): Refusal => {
  if (e instanceof ApiError && e.status === 422) {
    const lines = e.fieldErrors().comment ?? [];
    // The server's check also knows the reviewer's name: it may block what the live check let by.
    if (lines.length > 0)
      return { lines, field: true, blocked: lines[0] === reviewJa.replyBlocked };
  }
  return { lines: errorLines(e), field: false, blocked: false };
};

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s).length;

/** Each line on its own line inside the field's error (a <p>: spans, not divs). */
const Lines = ({ lines }: { lines: string[] }) =>
  lines.map((l) => (
    <span key={l} style={{ display: 'block' }}>
      {l}
    </span>
  ));

/**
 * Writing a reply (docs/product/reviews.md): the text is checked as it is typed, each finding
 * shown; a blocking one disables 送信 until the text no longer has it or the user ticks the
 * override. The draft is kept in the browser until the reply is sent; a refusal keeps the text.
 */
export function ReplyEditor({
  review,
  autoFocus = false,
  approving = false,
  onClose,
}: {
  review: ReviewView;
  autoFocus?: boolean;
  /** Deciding on the review's request for approval: its text, edited, is approved and sent. */
  approving?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const approval = approving ? review.approval : null;
  // With the agency's rule on, writing a reply asks for approval (ADR 0093).
  const requesting = !approval && review.approval_required;
  const start = approval?.comment ?? review.reply?.comment ?? '';
  const draft = useReplyDraft(review.id, start);
  const check = useReplyCheck(review, draft.text);
  const [override, setOverride] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const blocked = check.blocked || (refusal?.blocked ?? false);
  const bytes = bytesOf(draft.text);
  const tooLong = bytes > REVIEW_REPLY_MAX_BYTES;

  const send = useMutation({
    mutationFn: () =>
      approval
        ? approveCall(approval, draft.text, blocked && override)
        : requesting
          ? requestApprovalCall(review, draft.text, blocked && override)
          : replyCall(review, draft.text, blocked && override),
    onSuccess: (r) => {
      draft.finish();
      notifications.show({
        color: 'teal',
        message: r.message ?? t('reviews.reply.sent'),
        autoClose: TOAST_MS,
      });
      void qc.invalidateQueries({ queryKey: reviewKeys.lists });
      void qc.invalidateQueries({ queryKey: approvalKeys.all });
      onClose();
    },
    onError: (e) => setRefusal(refusalOf(e)),
  });

  const change = (v: string) => {
    draft.setText(v);
    // A confirmation is of the text confirmed; a refusal, of the text refused.
    setOverride(false);
    setRefusal(null);
  };
  const canSend = draft.text.trim() !== '' && !tooLong && (!blocked || override);

  return (
    <Stack
      gap="sm"
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend && !send.isPending) send.mutate();
      }}
    >
      {draft.restored && draft.text !== start && (
        <Text size="xs" c="blue.8">
          {t('reviews.reply.draftRestored')}
        </Text>
      )}
      <DraftMenu review={review} current={draft.text} onDraft={change} />
      <Textarea
        label={t('reviews.reply.label')}
        placeholder={t('reviews.reply.placeholder')}
        value={draft.text}
        onChange={(e) => change(e.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={12}
        autoFocus={autoFocus}
        description={
          <Text span size="xs" c={tooLong ? 'red' : undefined}>
            {t('reviews.reply.bytes', {
              bytes: bytes.toLocaleString('ja-JP'),
              max: REVIEW_REPLY_MAX_BYTES.toLocaleString('ja-JP'),
            })}
          </Text>
        }
        error={refusal?.field ? <Lines lines={refusal.lines} /> : undefined}
      />
      <FindingsList findings={check.findings} checking={check.checking} failed={check.failed} />
      {blocked && (
        <Checkbox
          label={t('reviews.reply.override')}
          description={t('reviews.reply.overrideHint')}
          checked={override}
          onChange={(e) => setOverride(e.currentTarget.checked)}
        />
      )}
      <ErrorAlert lines={refusal && !refusal.field ? refusal.lines : null} />
      <Group justify="flex-end" gap="xs">
        {draft.text !== start && (
          <Button variant="subtle" color="gray" onClick={() => change(start)}>
            {t('reviews.reply.discard')}
          </Button>
        )}
        <Button variant="default" onClick={onClose}>
          {t('reviews.reply.close')}
        </Button>
        <Button type="submit" disabled={!canSend} loading={send.isPending}>
          {approval
            ? t('reviews.approval.approve')
            : requesting
              ? t('reviews.approval.request')
              : t('reviews.reply.send')}
        </Button>
      </Group>
      {requesting && (
        <Text size="xs" c="dimmed">
          {t('reviews.approval.requiredHint')}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('reviews.reply.draftNote')}
      </Text>
    </Stack>
  );
}
