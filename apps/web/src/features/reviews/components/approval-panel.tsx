import { useState } from 'react';
import { Anchor, Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ROLE, type ApprovalItemView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { TOAST_MS } from '@/lib/timing';
import {
  approvalKeys,
  approvalQueueCall,
  approvalSettingsCall,
  saveApprovalSettingsCall,
} from '../api/approvals-api';
import { reviewKeys } from '../api/reviews-api';
import { Stars } from './review-card';
import { ApprovalBox } from './approval-box';

/** An agency's switch: its stores' replies go out only once approved (ADR 0093). */
function ApprovalSetting({ agencyId }: { agencyId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: approvalKeys.settings(agencyId),
    queryFn: ({ signal }) => approvalSettingsCall(agencyId, signal),
  });
  const save = useMutation({
    mutationFn: (on: boolean) => saveApprovalSettingsCall(agencyId, on),
    onSuccess: (r) => {
      qc.setQueryData(approvalKeys.settings(agencyId), r.data);
      notifications.show({
        color: 'teal',
        message: r.message ?? t('reviews.approval.settingSaved'),
        autoClose: TOAST_MS,
      });
      void qc.invalidateQueries({ queryKey: reviewKeys.lists });
    },
  });
  if (!settings.data?.can_edit) return null;
  return (
    <Stack gap={4}>
      <Switch
        label={t('reviews.approval.setting')}
        description={t('reviews.approval.settingHint')}
        checked={save.isPending ? save.variables : settings.data.replies_need_approval}
        disabled={save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked)}
      />
      <ErrorAlert lines={save.isError ? errorLines(save.error) : null} />
    </Stack>
  );
}

function QueueItem({ item }: { item: ApprovalItemView }) {
  const { t } = useTranslation();
  const excerpt = (item.review_comment ?? t('reviews.card.noComment')).replace(/\s+/g, ' ');
  return (
    <Stack gap={6} data-testid={`approval-${item.id}`}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={700}>
          {item.store_name}
        </Text>
        <Stars rating={item.review_star_rating} />
        <Text size="sm" c="dimmed" lineClamp={1} style={{ flex: 1, minWidth: 0 }}>
          {excerpt}
        </Text>
      </Group>
      <ApprovalBox approval={item} />
    </Stack>
  );
}

/**
 * Above the inbox: the agency's approval switch, and the requests waiting for a decision among
 * the chosen stores (each with 承認して送信 / 差し戻す, or 取り下げ for its author). To edit
 * before approving, the review's card below has 編集して承認.
 */
export function ApprovalPanel({ storeIds }: { storeIds: number[] }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [showAll, setShowAll] = useState(false);
  const queue = useQuery({
    queryKey: approvalKeys.queue(storeIds),
    queryFn: ({ signal }) => approvalQueueCall(storeIds, signal),
    enabled: storeIds.length > 0,
  });
  const items = queue.data?.data ?? [];
  const shown = showAll ? items : items.slice(0, 3);
  const isAgency = user?.role === ROLE.agency;
  if (!isAgency && items.length === 0 && !queue.isError) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="approval-queue">
      <Stack gap="sm">
        {isAgency && user && <ApprovalSetting agencyId={user.id} />}
        <Text id="approval-queue" fw={700} size="sm">
          {t('reviews.approval.queueTitle', { n: queue.data?.total ?? 0 })}
        </Text>
        <ErrorAlert lines={queue.isError ? errorLines(queue.error) : null} />
        {items.length === 0 && !queue.isPending && (
          <Text size="sm" c="dimmed">
            {t('reviews.approval.queueEmpty')}
          </Text>
        )}
        {shown.map((a) => (
          <QueueItem key={a.id} item={a} />
        ))}
        {items.length > shown.length && (
          <Group>
            <Anchor component="button" type="button" size="sm" onClick={() => setShowAll(true)}>
              {t('reviews.approval.showAll', { n: items.length })}
            </Anchor>
          </Group>
        )}
        {showAll && items.length > 3 && (
          <Group>
            <Button variant="subtle" size="compact-sm" onClick={() => setShowAll(false)}>
              {t('reviews.approval.showFewer')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
