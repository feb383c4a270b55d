import { Alert, Button, Group, Paper, Stack, Tabs, Text } from '@mantine/core';
import { TOPIC_CHANNEL, type PublisherKey } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { labelOf, usePostForm, type PostFormProps } from '../hooks/use-post-form';
import { PostApprovalNotice } from './post-approval-notice';
import { PostFormFields } from './post-form-fields';
import { ApprovalNote, useTargetStateLabel } from './post-state';

export type { PostFormValues } from '../hooks/use-post-form';

/**
 * The post form of spec 2 §3–§5: one tab per connected channel (the active tab decides the
 * media limits and the count display, and is always a target; the other connected channels can
 * be ticked as targets too), content, button type and link (call now with the business's main
 * phone, read-only), media, publish and removal dates in Tokyo time. Every rule is domain's
 * `checkPost`, judged as the user edits; submit is disabled by the spec's three rules, and a
 * click with other errors shows them instead of sending.
 */
export function PostForm(props: PostFormProps) {
  const { storeIds, channels, mainPhone, initial } = props;
  const { t } = useTranslation();
  const stateLabel = useTargetStateLabel();
  const s = usePostForm(props);
  const { active, draft } = s;

  if (!active || channels.length === 0) {
    return (
      <Alert color="yellow" variant="light">
        {t('posts.noChannels')}
      </Alert>
    );
  }

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={(e) => void s.submit(e)} noValidate>
        {draft.restored && (
          <Alert color="blue" variant="light" mb="sm" role="status">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text size="sm">{t('posts.draft.restored')}</Text>
                {draft.restored.hadFiles && <Text size="sm">{t('posts.draft.filesLost')}</Text>}
              </Stack>
              <Button size="xs" variant="default" onClick={s.discardDraft}>
                {t('posts.draft.discard')}
              </Button>
            </Group>
          </Alert>
        )}
        {/* A copy of a post that was not approved: why, so the copy can fix it (ADR 0095). */}
        {initial?.state === 'not_approved' && (
          <Alert
            color="gray"
            variant="light"
            mb="sm"
            title={stateLabel('not_approved', initial.approval)}
          >
            <ApprovalNote approval={initial.approval} />
          </Alert>
        )}
        {storeIds.length > 1 && (
          <Alert color="blue" variant="light" mb="sm">
            {t('posts.stores', { count: storeIds.length })}
          </Alert>
        )}
        <Tabs
          value={active}
          onChange={(v) => v && s.switchTab(v as PublisherKey)}
          keepMounted={false}
        >
          <Tabs.List>
            {channels.map((c) => (
              <Tabs.Tab key={c} value={c} disabled={s.googleOnly && c !== TOPIC_CHANNEL}>
                {labelOf(c)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {channels.map((c) => (
            <Tabs.Panel key={c} value={c}>
              {c === active && (
                <PostFormFields
                  s={s}
                  channels={channels}
                  mainPhone={mainPhone}
                  active={active}
                  notice={<PostApprovalNotice storeIds={storeIds} />}
                />
              )}
            </Tabs.Panel>
          ))}
        </Tabs>
      </form>
    </Paper>
  );
}
