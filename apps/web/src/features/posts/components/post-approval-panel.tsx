import { useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, Stack, Switch, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  APPROVAL_NOTE_MAX,
  parsePostDate,
  publisherByKey,
  ROLE,
  type PostApprovalItemView,
} from '@tenpo/domain';
import { ErrorAlert } from '@/components/ui/error-alert';
import { Modal } from '@/components/ui/modal';
import { errorLines } from '@/lib/api-client';
import { tokyoDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { TOAST_MS } from '@/lib/timing';
import {
  approvePostCall,
  postApprovalKeys,
  postApprovalQueueCall,
  postApprovalSettingsCall,
  postApprovalSettingsKey,
  rejectPostCall,
  savePostApprovalSettingCall,
  withdrawPostCall,
} from '../api/post-approvals-api';
import { postKeys } from '../api/posts-api';
import { postApprovalTexts as tx } from '../approval/texts';
import { formatPostDate } from '../format';

/** How many requests the panel shows before 「すべて表示」. */
const FIRST_SHOWN = 3;

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : tokyoDateTime(d);
};

const channelsOf = (keys: string) =>
  keys
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '')
    .map((k) => publisherByKey(k)?.label ?? k);

/** After a decision: the list and the panel read again, the answer's message shown. */
function useDecided() {
  const qc = useQueryClient();
  return (message: string | undefined, fallback: string) => {
    notifications.show({ color: 'teal', message: message ?? fallback, autoClose: TOAST_MS });
    // The list's and the panel's keys both start with 'posts'.
    void qc.invalidateQueries({ queryKey: postKeys.all });
    void qc.invalidateQueries({ queryKey: postApprovalKeys.all });
  };
}

/**
 * An agency's switch: its stores' posts are held until approved (ADR 0095). The same control
 * and wording as the reviews' 「店舗の返信に承認を必須にする」.
 */
export function PostApprovalSetting({ agencyId }: { agencyId: number }) {
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: postApprovalSettingsKey(agencyId),
    queryFn: ({ signal }) => postApprovalSettingsCall(agencyId, signal),
  });
  const save = useMutation({
    mutationFn: (on: boolean) => savePostApprovalSettingCall(agencyId, on),
    onSuccess: (r) => {
      qc.setQueryData(postApprovalSettingsKey(agencyId), r.data);
      notifications.show({
        color: 'teal',
        message: r.message ?? tx.settingSaved,
        autoClose: TOAST_MS,
      });
      void qc.invalidateQueries({ queryKey: postApprovalKeys.all });
    },
  });
  if (!settings.data?.can_edit) return null;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap={4}>
        <Switch
          label={tx.setting}
          description={tx.settingHint}
          checked={save.isPending ? save.variables : settings.data.posts_need_approval}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.currentTarget.checked)}
        />
        <ErrorAlert lines={save.isError ? errorLines(save.error) : null} />
      </Stack>
    </Paper>
  );
}

/** 差し戻す asks for an optional note; a refusal stays in the dialog with the note kept. */
function RejectDialog({
  item,
  opened,
  onClose,
}: {
  item: PostApprovalItemView;
  opened: boolean;
  onClose: () => void;
}) {
  const decided = useDecided();
  const [note, setNote] = useState('');
  const reject = useMutation({
    mutationFn: () => rejectPostCall(item, note.trim()),
    onSuccess: (r) => {
      decided(r.message, tx.rejected);
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
    <Modal opened={opened} onClose={close} title={tx.rejectTitle} centered>
      <Stack>
        <ErrorAlert lines={reject.isError ? errorLines(reject.error) : null} />
        <Textarea
          label={tx.rejectNote}
          description={tx.rejectNoteHint}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={APPROVAL_NOTE_MAX}
          autosize
          minRows={3}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {tx.cancel}
          </Button>
          <Button color="red" loading={reject.isPending} onClick={() => reject.mutate()}>
            {tx.reject}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** One request: what the post says, where and when it goes, who asked; the decisions. */
function QueueItem({ item, now }: { item: PostApprovalItemView; now: number }) {
  const decided = useDecided();
  const [rejecting, setRejecting] = useState(false);
  const approve = useMutation({
    mutationFn: () => approvePostCall(item),
    onSuccess: (r) => decided(r.message, tx.approved),
  });
  const withdraw = useMutation({
    mutationFn: () => withdrawPostCall(item),
    onSuccess: (r) => decided(r.message, tx.withdrawn),
  });
  const failure = approve.error ?? withdraw.error;
  const due = parsePostDate(item.publish_date);
  const passed = due !== null && due.getTime() <= now;
  const excerpt = item.content.replace(/\s+/g, ' ').trim();
  const titleId = `post-approval-${item.id}-store`;
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      bg="orange.0"
      component="article"
      aria-labelledby={titleId}
      data-testid={`post-approval-${item.id}`}
    >
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Text id={titleId} size="sm" fw={700}>
            {item.store_name}
          </Text>
          <Badge color="orange" variant="light">
            {tx.reasons.pending}
          </Badge>
          {channelsOf(item.shared_sns_type).map((c) => (
            <Badge key={c} color="gray" variant="outline" size="sm">
              {c}
            </Badge>
          ))}
        </Group>
        {item.title && (
          <Text size="sm" fw={600}>
            {item.title}
          </Text>
        )}
        <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
          {excerpt}
        </Text>
        <Text size="xs">
          {tx.publishDate}: {formatPostDate(item.publish_date) ?? tx.publishNow}
        </Text>
        {passed && (
          <Text size="xs" c="red" fw={600}>
            {tx.pastPublishDate}
          </Text>
        )}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {tx.by(item.author_email, when(item.created_at))}
        </Text>
        <Text size="xs" c="dimmed">
          {tx.expires(when(item.expires_at))}
        </Text>
        <ErrorAlert lines={failure ? errorLines(failure) : null} />
        {(item.can_decide || item.can_withdraw) && (
          <Group gap="xs" wrap="wrap">
            {item.can_decide && (
              <>
                <Button
                  size="compact-sm"
                  loading={approve.isPending}
                  onClick={() => approve.mutate()}
                  aria-label={tx.approveOf(item.store_name)}
                >
                  {tx.approve}
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => setRejecting(true)}
                  aria-label={tx.rejectOf(item.store_name)}
                >
                  {tx.reject}
                </Button>
              </>
            )}
            {item.can_withdraw && (
              <Button
                size="compact-sm"
                variant="subtle"
                color="gray"
                loading={withdraw.isPending}
                onClick={() => withdraw.mutate()}
                aria-label={tx.withdrawOf(item.store_name)}
              >
                {tx.withdraw}
              </Button>
            )}
          </Group>
        )}
      </Stack>
      {item.can_decide && (
        <RejectDialog item={item} opened={rejecting} onClose={() => setRejecting(false)} />
      )}
    </Paper>
  );
}

/**
 * Above /posts (ADR 0095): the agency's switch, and the posts of the stores in view that wait
 * for approval (承認 / 差し戻す, or 取り下げ for their author). Nothing when none waits.
 */
export function PostApprovalPanel({
  storeIds,
  now = Date.now,
}: {
  storeIds: readonly number[];
  now?: () => number;
}) {
  const { user } = useSession();
  const [showAll, setShowAll] = useState(false);
  const queue = useQuery({
    queryKey: postApprovalKeys.queue(storeIds),
    queryFn: ({ signal }) => postApprovalQueueCall(storeIds, signal),
    enabled: storeIds.length > 0,
  });
  const items = queue.data?.data ?? [];
  const shown = showAll ? items : items.slice(0, FIRST_SHOWN);
  const isAgency = user?.role === ROLE.agency;
  const at = now();
  return (
    <>
      {isAgency && user && <PostApprovalSetting agencyId={user.id} />}
      {(items.length > 0 || queue.isError) && (
        <Paper
          withBorder
          p="md"
          radius="md"
          component="section"
          aria-labelledby="post-approval-queue"
        >
          <Stack gap="sm">
            <Text id="post-approval-queue" fw={700} size="sm" component="h2">
              {tx.queueTitle(queue.data?.total ?? 0)}
            </Text>
            <ErrorAlert lines={queue.isError ? errorLines(queue.error) : null} />
            {shown.map((a) => (
              <QueueItem key={a.id} item={a} now={at} />
            ))}
            {items.length > shown.length && (
              <Group>
                <Anchor component="button" type="button" size="sm" onClick={() => setShowAll(true)}>
                  {tx.showAll(items.length)}
                </Anchor>
              </Group>
            )}
            {showAll && items.length > FIRST_SHOWN && (
              <Group>
                <Button variant="subtle" size="compact-sm" onClick={() => setShowAll(false)}>
                  {tx.showFewer}
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      )}
    </>
  );
}
