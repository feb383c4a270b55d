import { Badge, Stack, Text } from '@mantine/core';
import type { PostApprovalState, PostApprovalView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import type { TargetState } from '../api/posts-api';
import { postApprovalTexts as tx } from '../approval/texts';

export const STATE_COLOR: Record<TargetState, string> = {
  awaiting_approval: 'orange',
  not_approved: 'gray',
  scheduled: 'blue',
  publishing: 'cyan',
  published: 'teal',
  failed: 'red',
  unknown: 'yellow',
  removing: 'gray',
  removed: 'gray',
};

/** Why a post was not approved, as its request ended: 差し戻し, 取り下げ or 期限切れ. */
const reasonOf = (state: PostApprovalState | undefined): string | null =>
  state === 'rejected' || state === 'withdrawn' || state === 'expired' ? tx.reasons[state] : null;

/** A target's state in words; one not approved says why when the post's request tells. */
export function useTargetStateLabel() {
  const { t } = useTranslation();
  return (state: TargetState, approval?: Pick<PostApprovalView, 'state'> | null): string => {
    if (state === 'awaiting_approval') return tx.states.awaiting_approval;
    if (state === 'not_approved') {
      const reason = reasonOf(approval?.state);
      return reason ? tx.notApproved(reason) : tx.states.not_approved;
    }
    return t(`posts.list.states.${state}`);
  };
}

export function TargetStateBadge({
  state,
  approval,
}: {
  state: TargetState;
  approval?: Pick<PostApprovalView, 'state'> | null;
}) {
  const label = useTargetStateLabel();
  return (
    <Badge size="sm" variant="light" color={STATE_COLOR[state]}>
      {label(state, approval)}
    </Badge>
  );
}

/** Under a post not approved: why (the approver's note, when sent back), and that it is never sent. */
export function ApprovalNote({ approval }: { approval: PostApprovalView | null | undefined }) {
  if (!approval || !reasonOf(approval.state)) return null;
  return (
    <Stack gap={0} data-testid="post-approval-note">
      {approval.state === 'rejected' && approval.note && (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
          {tx.note(approval.note)}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {tx.notSent}
      </Text>
    </Stack>
  );
}
