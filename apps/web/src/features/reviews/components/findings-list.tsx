import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FindingSeverity, ReviewFinding } from '../api/reviews-api';

const COLOR: Record<FindingSeverity, string> = { block: 'red', warn: 'yellow' };

function FindingItem({ finding }: { finding: ReviewFinding }) {
  const { t } = useTranslation();
  const color = COLOR[finding.severity];
  return (
    <Paper
      p="xs"
      radius="sm"
      bg={`${color}.0`}
      style={{ borderLeft: `4px solid var(--mantine-color-${color}-6)` }}
      data-testid="review-finding"
      data-severity={finding.severity}
    >
      <Stack gap={4}>
        <Group gap={6} wrap="wrap">
          <Badge color={color} variant="filled" size="sm" autoContrast>
            {t(`reviews.reply.severity.${finding.severity}`)}
          </Badge>
          <Text size="sm" fw={700}>
            {t('reviews.reply.phrase', { phrase: finding.phrase })}
          </Text>
          <Text size="sm" fw={600}>
            {finding.title}
          </Text>
        </Group>
        <Text size="sm">{finding.reason}</Text>
        <Anchor size="xs" href={finding.source.url} target="_blank" rel="noreferrer">
          {t('reviews.reply.source', { title: finding.source.title })}
        </Anchor>
      </Stack>
    </Paper>
  );
}

/**
 * What the check found in the reply being written: each phrase with its rule's title, why, and
 * the rule's source; `block` in red, `warn` in yellow. Announced politely as it changes.
 */
export function FindingsList({
  findings,
  checking,
  failed,
}: {
  findings: readonly ReviewFinding[];
  checking: boolean;
  failed: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" aria-live="polite">
      {checking && (
        <Text size="xs" c="dimmed">
          {t('reviews.reply.checking')}
        </Text>
      )}
      {failed && (
        <Text size="xs" c="orange.8">
          {t('reviews.reply.checkFailed')}
        </Text>
      )}
      {findings.length > 0 && (
        <Text size="sm" fw={600}>
          {t('reviews.reply.findingsTitle')}
        </Text>
      )}
      {findings.map((f) => (
        <FindingItem key={`${f.rule_id}:${f.start}:${f.end}`} finding={f} />
      ))}
    </Stack>
  );
}
