import { Fragment } from 'react';
import { Anchor, Box, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { privacyPolicyJa as doc } from '@/i18n/documents/privacy-policy';

/** /facebook-terms-and-privacy: the public privacy policy of spec 1 §1 (its text: i18n/documents). */
export function PrivacyPolicyRoute() {
  const { t } = useTranslation();
  return (
    <Box bg="gray.0" mih="100vh" py="xl">
      <Container size="md">
        <Paper p="xl" radius="md" shadow="xs">
          <Stack>
            <Title order={1}>{t('privacy.title')}</Title>
            <Text>{doc.intro}</Text>
            {doc.sections.map((section) => (
              <Fragment key={section.title}>
                <Title order={3}>{section.title}</Title>
                {section.text !== undefined && <Text>{section.text}</Text>}
                {section.items !== undefined && (
                  <List>
                    {section.items.map((item) => (
                      <List.Item key={item}>{item}</List.Item>
                    ))}
                  </List>
                )}
              </Fragment>
            ))}
            <Text c="dimmed" size="sm">
              {doc.footer}
            </Text>
            <Anchor component={Link} to="/login">
              {t('screens.forgotPassword.backToLogin')}
            </Anchor>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
