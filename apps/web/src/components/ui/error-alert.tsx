import { Alert, List } from '@mantine/core';

/** Shows flattened error lines (spec 1 §8: pages show the joined messages). */
export function ErrorAlert({ lines, title }: { lines: string[] | null; title?: string }) {
  if (!lines || lines.length === 0) return null;
  return (
    <Alert color="red" variant="light" title={title} role="alert">
      {lines.length === 1 ? (
        lines[0]
      ) : (
        <List size="sm">
          {lines.map((l) => (
            <List.Item key={l}>{l}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
