import { useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Select,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { REVIEW_MAIL_MODES, type NoticeView, type ReviewMailMode } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { tokyoDateTime } from '@/lib/format';
import { TOAST_MS } from '@/lib/timing';
import {
  NOTICE_POLL_MS,
  noticeKeys,
  noticeSettingsCall,
  noticesCall,
  readNoticesCall,
  saveNoticeSettingsCall,
} from '../api/notices-api';

function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16a1 1 0 0 0 .9 1.5h13.6a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6Zm-2 16a2 2 0 0 0 4 0"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** How the user hears of new reviews by mail (the notices stay in the app in every case). */
function MailSetting() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: noticeKeys.settings,
    queryFn: ({ signal }) => noticeSettingsCall(signal),
  });
  const save = useMutation({
    mutationFn: (mode: ReviewMailMode) => saveNoticeSettingsCall(mode),
    onSuccess: (r) => {
      qc.setQueryData(noticeKeys.settings, r.data);
      notifications.show({
        color: 'teal',
        message: r.message ?? t('notices.saved'),
        autoClose: TOAST_MS,
      });
    },
  });
  return (
    <Select
      label={t('notices.mailLabel')}
      size="xs"
      data={REVIEW_MAIL_MODES.map((m) => ({ value: m, label: t(`notices.mail.${m}`) }))}
      value={save.isPending ? save.variables : (settings.data?.review_mail ?? null)}
      disabled={!settings.data || save.isPending}
      allowDeselect={false}
      onChange={(v) => v && save.mutate(v as ReviewMailMode)}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

function NoticeItem({ n, onOpen }: { n: NoticeView; onOpen: (n: NoticeView) => void }) {
  return (
    <UnstyledButton
      onClick={() => onOpen(n)}
      p="xs"
      style={{ borderRadius: 4, display: 'block', width: '100%' }}
      bg={n.read_at ? undefined : 'blue.0'}
      data-testid={`notice-${n.id}`}
    >
      <Text size="sm" fw={n.read_at ? 400 : 700}>
        {n.title}
      </Text>
      {n.body && (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {n.body}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {tokyoDateTime(new Date(n.created_at))}
      </Text>
    </UnstyledButton>
  );
}

/**
 * The header's bell (ADR 0094): the unread count, the latest notices (opening one marks it read
 * and goes to its screen), すべて既読にする, and the review mail choice.
 */
export function NoticeBell() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const list = useQuery({
    queryKey: noticeKeys.list,
    queryFn: ({ signal }) => noticesCall(signal),
    refetchInterval: NOTICE_POLL_MS,
  });
  const read = useMutation({
    mutationFn: (ids?: number[]) => readNoticesCall(ids),
    onSettled: () => void qc.invalidateQueries({ queryKey: noticeKeys.list }),
  });
  const unread = list.data?.unread ?? 0;
  const rows = list.data?.data.data ?? [];
  const open = (n: NoticeView) => {
    if (!n.read_at) read.mutate([n.id]);
    setOpened(false);
    void navigate(n.link);
  };
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={340}
      shadow="md"
      trapFocus
      returnFocus
    >
      {/* The target is the button itself: Popover gives it aria-expanded and aria-controls. */}
      <Indicator
        disabled={unread === 0}
        label={unread > 99 ? '99+' : unread}
        size={16}
        color="red"
        offset={4}
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('notices.open', { n: unread })}
            onClick={() => setOpened((o) => !o)}
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p="xs" maw="calc(100vw - 16px)">
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={700} size="sm">
              {t('notices.title')}
            </Text>
            {unread > 0 && (
              <Anchor
                component="button"
                type="button"
                size="xs"
                onClick={() => read.mutate(undefined)}
              >
                {t('notices.readAll')}
              </Anchor>
            )}
          </Group>
          {rows.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('notices.empty')}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={360}>
              <Stack gap={2}>
                {rows.map((n) => (
                  <NoticeItem key={n.id} n={n} onOpen={open} />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
          <Divider />
          <MailSetting />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
