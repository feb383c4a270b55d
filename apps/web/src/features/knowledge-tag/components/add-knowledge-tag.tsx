import { useState } from 'react';
import {
  Accordion,
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  EMBED_FIELD_ATTRIBUTES,
  EMBED_FIELDS,
  KNOWLEDGE_TAG_SEEN_DAYS,
  type KnowledgeTag,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { TOAST_MS } from '@/lib/timing';
import {
  embedScriptTag,
  knowledgeTagCall,
  knowledgeTagKeys,
  saveAnalyticsCall,
} from '../api/knowledge-tag-api';
import { formatSeenAt } from '../format';
import { AnalyticsModal } from './analytics-modal';

function CopyField({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant={copied ? 'filled' : 'light'}
          color={copied ? 'teal' : undefined}
          onClick={copy}
          aria-label={t('knowledgeTag.steps.copyLabel', { label })}
        >
          {copied ? t('knowledgeTag.steps.copied') : t('knowledgeTag.steps.copy')}
        </Button>
      )}
    </CopyButton>
  );
}

function SeenStatus({ tag }: { tag: KnowledgeTag }) {
  const { t } = useTranslation();
  const s = tag.seen;
  if (s.installed && s.last_seen_at && s.first_seen_at)
    return (
      <Alert color="teal" variant="light" title={t('knowledgeTag.steps.seen')} role="status">
        <Stack gap={4}>
          <Text size="sm">
            {t('knowledgeTag.steps.seenDetail', {
              last: formatSeenAt(s.last_seen_at),
              origin: s.page_origin ?? t('knowledgeTag.steps.unknownOrigin'),
              first: formatSeenAt(s.first_seen_at),
              count: s.embed_count,
            })}
          </Text>
          {s.on_website !== null && s.website_origin && (
            <Text size="sm" c={s.on_website ? undefined : 'orange'}>
              {t(s.on_website ? 'knowledgeTag.steps.onWebsite' : 'knowledgeTag.steps.offWebsite', {
                website: s.website_origin,
              })}
            </Text>
          )}
          {tag.analytics_option !== 1 && tag.analytics_option !== null && (
            <Text size="sm">{t('knowledgeTag.steps.views', { count: tag.view_count })}</Text>
          )}
        </Stack>
      </Alert>
    );
  return (
    <Alert color="gray" variant="light" role="status">
      {s.last_seen_at
        ? t('knowledgeTag.steps.stale', {
            days: KNOWLEDGE_TAG_SEEN_DAYS,
            last: formatSeenAt(s.last_seen_at),
          })
        : t('knowledgeTag.steps.notSeen')}
    </Alert>
  );
}

/** /add-knowledge-tag (spec 2 §2): three steps, then the analytics confirm modal. */
export function AddKnowledgeTag({ userId, origin }: { userId: number; origin: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const query = useQuery({
    queryKey: knowledgeTagKeys.tag(userId),
    queryFn: ({ signal }) => knowledgeTagCall(userId, signal),
  });
  const save = useMutation({
    mutationFn: (option: number) => saveAnalyticsCall(userId, option),
    onSuccess: (r) => {
      client.setQueryData(knowledgeTagKeys.tag(userId), r.data);
      notifications.show({ color: 'teal', message: r.message, autoClose: TOAST_MS });
      setConfirming(false);
      void navigate('/knowledge-tag');
    },
  });

  if (query.isPending) return <Loader aria-label={t('app.loading')} />;
  if (query.isError)
    return <ErrorAlert title={t('knowledgeTag.loadError')} lines={errorLines(query.error)} />;
  const tag = query.data;
  const script = tag.entity_id ? embedScriptTag(origin, tag) : null;
  const [first, second] = EMBED_FIELD_ATTRIBUTES;

  return (
    <Stack>
      <Accordion multiple defaultValue={['step1', 'step2', 'step3']} variant="separated">
        <Accordion.Item value="step1">
          <Accordion.Control>{t('knowledgeTag.steps.step1')}</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              <Text size="sm">{t('knowledgeTag.steps.step1Text')}</Text>
              {script ? (
                <Group align="flex-start" wrap="nowrap">
                  <Code
                    block
                    data-testid="knowledge-tag-script"
                    style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
                  >
                    {script}
                  </Code>
                  <CopyField value={script} label={t('knowledgeTag.steps.scriptLabel')} />
                </Group>
              ) : (
                <Alert color="yellow" variant="light">
                  {t('knowledgeTag.steps.noLocation')}
                </Alert>
              )}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="step2">
          <Accordion.Control>{t('knowledgeTag.steps.step2')}</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              <Text size="sm">{t('knowledgeTag.steps.step2Text', { first, second })}</Text>
              <Table withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('knowledgeTag.steps.field')}</Table.Th>
                    <Table.Th>{t('knowledgeTag.steps.code')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {EMBED_FIELDS.map((f) => {
                    const code = `<span ${first}="${f.key}"></span>`;
                    return (
                      <Table.Tr key={f.key}>
                        <Table.Td>{f.label}</Table.Td>
                        <Table.Td>
                          <Code>{code}</Code>
                        </Table.Td>
                        <Table.Td>
                          <CopyField value={code} label={f.label} />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
              <Anchor component={Link} to="/add-knowledge-tag/schema-markup" size="sm">
                {t('knowledgeTag.steps.customise')}
              </Anchor>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="step3">
          <Accordion.Control>{t('knowledgeTag.steps.step3')}</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              <Text size="sm">{t('knowledgeTag.steps.step3Text')}</Text>
              <SeenStatus tag={tag} />
              <Group>
                <Button
                  variant="light"
                  loading={query.isFetching}
                  onClick={() => void query.refetch()}
                >
                  {t('knowledgeTag.steps.recheck')}
                </Button>
              </Group>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <Group justify="flex-end">
        <Button variant="default" component={Link} to="/knowledge-tag">
          {t('knowledgeTag.steps.cancel')}
        </Button>
        <Button onClick={() => setConfirming(true)}>{t('knowledgeTag.steps.finish')}</Button>
      </Group>
      {save.isError && <ErrorAlert lines={errorLines(save.error)} />}
      {confirming && (
        <AnalyticsModal
          opened
          initial={tag.analytics_option}
          saving={save.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={(o) => save.mutate(o)}
        />
      )}
    </Stack>
  );
}
