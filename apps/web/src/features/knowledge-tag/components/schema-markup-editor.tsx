import { useState } from 'react';
import { Anchor, Badge, Button, Group, Loader, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { checkTemplate, PLACEHOLDER_KEYS, type SchemaMarkup } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines, type Envelope } from '@/lib/api-client';
import { TOAST_MS } from '@/lib/timing';
import {
  knowledgeTagKeys,
  resetSchemaMarkupCall,
  saveSchemaMarkupCall,
  schemaMarkupCall,
} from '../api/knowledge-tag-api';

function Editor({ userId, markup }: { userId: number; markup: SchemaMarkup }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [text, setText] = useState(markup.template);
  const [error, setError] = useState<string | null>(null);
  const done = (r: Envelope<SchemaMarkup>) => {
    client.setQueryData(knowledgeTagKeys.markup(userId), r.data);
    setText(r.data.template);
    setError(null);
    notifications.show({ color: 'teal', message: r.message, autoClose: TOAST_MS });
  };
  const failed = (e: unknown) => {
    const field = e instanceof ApiError ? e.fieldErrors().template?.[0] : undefined;
    setError(field ?? errorLines(e).join('\n'));
  };
  const save = useMutation({
    mutationFn: (template: string) => saveSchemaMarkupCall(userId, template),
    onSuccess: done,
    onError: failed,
  });
  const reset = useMutation({
    mutationFn: () => resetSchemaMarkupCall(userId),
    onSuccess: done,
    onError: failed,
  });
  const submit = () => {
    // The same rules as the API's: the message shows at once, without a call.
    const c = checkTemplate(text);
    if (!c.ok) {
      setError(c.message);
      return;
    }
    save.mutate(text);
  };
  const current = client.getQueryData<SchemaMarkup>(knowledgeTagKeys.markup(userId)) ?? markup;
  return (
    <Stack>
      <Group gap="xs">
        <Badge variant="light" color={current.is_default ? 'gray' : 'blue'}>
          {current.is_default ? t('knowledgeTag.markup.default') : t('knowledgeTag.markup.custom')}
        </Badge>
      </Group>
      <Text size="sm">{t('knowledgeTag.markup.text', { example: '{{name}}' })}</Text>
      <Text size="xs" c="dimmed">
        {t('knowledgeTag.markup.placeholders', {
          list: PLACEHOLDER_KEYS.map((k) => `{{${k}}}`).join(' '),
        })}
      </Text>
      <Textarea
        label={t('knowledgeTag.markup.label')}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        autosize
        minRows={14}
        maxRows={30}
        spellCheck={false}
        styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
      />
      <Group justify="space-between">
        <Anchor component={Link} to="/add-knowledge-tag">
          {t('knowledgeTag.markup.cancel')}
        </Anchor>
        <Group>
          <Button variant="default" loading={reset.isPending} onClick={() => reset.mutate()}>
            {t('knowledgeTag.markup.reset')}
          </Button>
          <Button loading={save.isPending} onClick={submit}>
            {t('knowledgeTag.markup.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** /add-knowledge-tag/schema-markup: the store's JSON-LD template, kept per store (ADR 0045). */
export function SchemaMarkupEditor({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: knowledgeTagKeys.markup(userId),
    queryFn: ({ signal }) => schemaMarkupCall(userId, signal),
    staleTime: Infinity,
  });
  if (query.isPending) return <Loader aria-label={t('app.loading')} />;
  if (query.isError)
    return <ErrorAlert title={t('knowledgeTag.loadError')} lines={errorLines(query.error)} />;
  return <Editor userId={userId} markup={query.data} />;
}
