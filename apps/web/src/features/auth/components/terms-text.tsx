import { Fragment } from 'react';
import { List, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { termsOfUseJa as doc } from '@/i18n/documents/terms-of-use';

/**
 * The default terms of use (spec 1 §9; its text: i18n/documents/terms-of-use.ts). The two brand
 * variants' own texts are not part of this screen yet.
 */
export function TermsText({ height = 320 }: { height?: number }) {
  return (
    <ScrollArea h={height} type="auto" offsetScrollbars>
      <Stack gap="xs" pr="sm">
        <Title order={4}>{doc.title}</Title>
        <Text size="sm">{doc.intro}</Text>
        {doc.sections.map((section) => (
          <Fragment key={section.title}>
            <Title order={5}>{section.title}</Title>
            {section.text !== undefined && <Text size="sm">{section.text}</Text>}
            {section.items !== undefined && (
              <List size="sm">
                {section.items.map((item) => (
                  <List.Item key={item}>{item}</List.Item>
                ))}
              </List>
            )}
          </Fragment>
        ))}
        <Text size="sm" c="dimmed">
          {doc.footer}
        </Text>
      </Stack>
    </ScrollArea>
  );
}
