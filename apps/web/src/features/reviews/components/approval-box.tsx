import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { APPROVAL_NOTE_MAX, type ApprovalState, type ReviewApprovalView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { Modal } from '@/components/ui/modal';
import { errorLines } from '@/lib/api-client';
import { tokyoDateTime } from '@/lib/format';
import { TOAST_MS } from '@/lib/timing';
import { approvalKeys, approveCall, rejectCall, withdrawCall } from '../api/approvals-api';
import { reviewKeys } from '../api/reviews-api';

const STATE_COLOR: Record<ApprovalState, string> = {
  pending: 'orange',
  approved: 'blue',
  sent: 'teal',
  failed: 'red',
  rejected: 'red',
  withdrawn: 'gray',
  expired: 'gray',
};

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : tokyoDateTime(d);
};

/** After a decision: the inbox and the queue read again, the answer's message shown. */
function useDecided() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (message: string | undefined, fallback: 'approvedSent' | 'rejected' | 'withdrawn') => {
    notifications.show({
      color: 'teal',
      message: message ?? t(`reviews.approval.${fallback}`),
      autoClose: TOAST_MS,
    });
    void qc.invalidateQueries({ queryKey: reviewKeys.lists });
    void qc.invalidateQueries({ queryKey: approvalKeys.all });
  };
}

/** 差し戻す asks for an optional note; a refusal stays in the dialog with the note kept. */
export function RejectDialog({
  approval,
  opened,
  onClose,
}: {
  approval: Pick<ReviewApprovalView, 'id' | 'user_id'>;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const decided = useDecided();
  const [note, setNote] = useState('');
  const reject = useMutation({
    mutationFn: () => rejectCall(approval, note.trim()),
    onSuccess: (r) => {
      decided(r.message, 'rejected');
      setNote('');
      onClose();
    },
  });
  const close = () => {
    if (reject.isPending) return;
    reject.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t('reviews.approval.rejectTitle')} centered>
      <Stack>
        <ErrorAlert lines={reject.isError ? errorLines(reject.error) : null} />
        <Textarea
          label={t('reviews.approval.rejectNote')}
          description={t('reviews.approval.rejectNoteHint')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={APPROVAL_NOTE_MAX}
          autosize
          minRows={3}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('actions.cancel')}
          </Button>
          <Button color="red" loading={reject.isPending} onClick={() => reject.mutate()}>
            {t('reviews.approval.reject')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A review's request for approval (ADR 0093): its state, text, who asked and decided, why it
 * was sent back; an approver approves it as it is, edits it first (`onEdit` opens the editor) or
 * sends it back; its author withdraws it.
 */
export function ApprovalBox({
  approval,
  onEdit,
}: {
  approval: ReviewApprovalView;
  onEdit?: () => void;
}) {
  const { t } = useTranslation();
  const decided = useDecided();
  const [rejecting, setRejecting] = useState(false);
  const approve = useMutation({
    mutationFn: () => approveCall(approval, undefined, approval.override),
    onSuccess: (r) => decided(r.message, 'approvedSent'),
  });
  const withdraw = useMutation({
    mutationFn: () => withdrawCall(approval),
    onSuccess: (r) => decided(r.message, 'withdrawn'),
  });
  const failure = approve.error ?? withdraw.error;
  const open = approval.state === 'pending' || approval.state === 'failed';
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      bg={open ? 'orange.0' : undefined}
      data-testid="review-approval"
    >
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {t('reviews.approval.title')}
          </Text>
          <Badge color={STATE_COLOR[approval.state]} variant="light">
            {t(`reviews.approval.states.${approval.state}`)}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('reviews.approval.by', {
              email: approval.author_email,
              at: when(approval.created_at),
            })}
          </Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {approval.comment}
        </Text>
        {approval.override && open && (
          <Text size="xs" c="orange.9">
            {t('reviews.approval.overridden')}
          </Text>
        )}
        {approval.decided_by_email && approval.decided_at && (
          <Text size="xs" c="dimmed">
            {t('reviews.approval.decidedBy', {
              email: approval.decided_by_email,
              at: when(approval.decided_at),
            })}
          </Text>
        )}
        {approval.note && (
          <Text size="sm" c="red.8">
            {t(
              approval.state === 'failed' ? 'reviews.approval.failedNote' : 'reviews.approval.note',
              {
                note: approval.note,
              },
            )}
          </Text>
        )}
        {approval.state === 'pending' && (
          <Text size="xs" c="dimmed">
            {t('reviews.approval.expires', { at: when(approval.expires_at) })}
          </Text>
        )}
        <ErrorAlert lines={failure ? errorLines(failure) : null} />
        {(approval.can_decide || approval.can_withdraw) && (
          <Group gap="xs" wrap="wrap">
            {approval.can_decide && (
              <>
                <Button
                  size="compact-sm"
                  loading={approve.isPending}
                  onClick={() => approve.mutate()}
                >
                  {t('reviews.approval.approve')}
                </Button>
                {onEdit && (
                  <Button size="compact-sm" variant="light" onClick={onEdit}>
                    {t('reviews.approval.editApprove')}
                  </Button>
                )}
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => setRejecting(true)}
                >
                  {t('reviews.approval.reject')}
                </Button>
              </>
            )}
            {approval.can_withdraw && (
              <Button
                size="compact-sm"
                variant="subtle"
                color="gray"
                loading={withdraw.isPending}
                onClick={() => withdraw.mutate()}
              >
                {t('reviews.approval.withdraw')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
      {approval.can_decide && (
        <RejectDialog approval={approval} opened={rejecting} onClose={() => setRejecting(false)} />
      )}
    </Paper>
  );
}
