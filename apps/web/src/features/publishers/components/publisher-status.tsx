import { Badge, List, Text } from '@mantine/core';
import { publisherStatusView, type PublisherRow, type PublisherStatusView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { AlertIcon, BlockIcon, CheckIcon, LinkIcon, RefreshIcon } from '@/components/ui/icons';

const look: Record<PublisherStatusView, { color: string; icon: React.ReactNode | null }> = {
  disconnect: { color: 'gray', icon: null },
  disable: { color: 'gray', icon: <BlockIcon /> },
  connected: { color: 'blue', icon: <LinkIcon /> },
  success: { color: 'teal', icon: <CheckIcon /> },
  refresh: { color: 'yellow', icon: <RefreshIcon /> },
  error: { color: 'red', icon: <AlertIcon /> },
};

/** The status cell of spec 1 §2 (status display). */
export function PublisherStatusBadge({ row, role }: { row: PublisherRow; role: number | null }) {
  const { t } = useTranslation();
  const view = publisherStatusView(role ?? 1, row.publisher_key, row.status);
  const { color, icon } = look[view];
  return (
    <Badge
      color={color}
      variant={view === 'disconnect' || view === 'disable' ? 'outline' : 'light'}
      leftSection={icon}
      data-status={view}
      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
    >
      {t(`screens.connectAccount.status.${view}`)}
    </Badge>
  );
}

/** The status detail cell: the error log lines the server kept for the row. */
export function PublisherLog({ row }: { row: PublisherRow }) {
  if (row.log.length === 0) return null;
  return (
    <List size="xs" c="red" spacing={2}>
      {row.log.map((line, i) => (
        <List.Item key={`${i}-${line}`}>
          <Text size="xs" span>
            {line}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
