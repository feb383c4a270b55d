import { Table, Text } from '@mantine/core';
import type { AuditRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/** A value as the detail shows it: text as it is, nothing as a dash, the rest as JSON. */
const shown = (v: unknown, none: string, yes: string, no: string): string => {
  if (v === null || v === undefined || v === '') return none;
  if (typeof v === 'boolean') return v ? yes : no;
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'))
    return v.length ? v.join('、') : none;
  return JSON.stringify(v);
};

/** Before → after, one line per field (field names in Japanese where known, else the key). */
export function AuditChanges({ row }: { row: AuditRow }) {
  const { t } = useTranslation();
  const keys = [...new Set([...Object.keys(row.before ?? {}), ...Object.keys(row.after ?? {})])];
  if (keys.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('auditLog.noValues')}
      </Text>
    );
  // Read as one object: a field's key may hold a dot (`address.postalCode`).
  const fields = t('auditLog.fields', { returnObjects: true }) as Record<string, string>;
  const label = (k: string) => fields[k] ?? k;
  const none = t('auditLog.none');
  const fmt = (v: unknown) => shown(v, none, t('auditLog.yes'), t('auditLog.no'));
  return (
    <Table withTableBorder withColumnBorders fz="sm" aria-label={t('auditLog.changes')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="22%">{t('auditLog.field')}</Table.Th>
          <Table.Th>{t('auditLog.before')}</Table.Th>
          <Table.Th aria-hidden w={32}>
            →
          </Table.Th>
          <Table.Th>{t('auditLog.after')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((k) => (
          <Table.Tr key={k}>
            <Table.Td>{label(k)}</Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>{fmt(row.before?.[k])}</Table.Td>
            <Table.Td aria-hidden>→</Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>{fmt(row.after?.[k])}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
