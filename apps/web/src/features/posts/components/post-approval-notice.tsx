import { Text } from '@mantine/core';
import { postApprovalTexts as tx } from '../approval/texts';
import { usePostApprovalRule } from '../hooks/use-post-approval-rule';

/** Near the post form's submit: the stores' posts wait for approval (ADR 0095). */
export function PostApprovalNotice({ storeIds }: { storeIds: readonly number[] }) {
  const rule = usePostApprovalRule(storeIds);
  if (rule === 'none') return null;
  return (
    <Text size="sm" c="orange" ta="right" data-testid="post-approval-notice">
      {rule === 'some' ? tx.formNoticeSome : storeIds.length > 1 ? tx.formNoticeAll : tx.formNotice}
    </Text>
  );
}
