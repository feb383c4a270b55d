import { Anchor, Box, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** /facebook-terms-and-privacy: the public privacy policy of spec 1 §1. */
export function PrivacyPolicyRoute() {
  const { t } = useTranslation();
  return (
    <Box bg="gray.0" mih="100vh" py="xl">
      <Container size="md">
        <Paper p="xl" radius="md" shadow="xs">
          <Stack>
            <Title order={1}>{t('privacy.title')}</Title>
            <Text>
              Tenpo（以下「本サービス」）を運営する当社（日本）は、利用者の個人情報を以下のとおり取り扱います。
            </Text>
            <Title order={3}>1. 収集する情報</Title>
            <List>
              <List.Item>氏名</List.Item>
              <List.Item>住所・郵便番号</List.Item>
              <List.Item>電話番号</List.Item>
              <List.Item>ログイン情報（メールアドレス等）</List.Item>
            </List>
            <Title order={3}>2. Facebook ページ・Instagram アカウントの管理</Title>
            <Text>
              本サービスは、利用者の許可に基づき、利用者の Facebook ページ及び Instagram
              アカウントを管理し、投稿の作成・公開やインサイトの取得を行います。取得した情報は本サービスの提供にのみ利用します。
            </Text>
            <Title order={3}>3. 利用目的</Title>
            <Text>
              収集した情報は、店舗情報の管理、投稿の配信、レポートの作成、お問い合わせへの対応、及び本サービスの改善のために利用します。
            </Text>
            <Title order={3}>4. 第三者提供</Title>
            <Text>法令に基づく場合を除き、利用者の同意なく個人情報を第三者に提供しません。</Text>
            <Title order={3}>5. 13歳未満の方について</Title>
            <Text>
              本サービスは13歳未満の方を対象としておらず、13歳未満の方の情報を意図して収集することはありません。
            </Text>
            <Title order={3}>6. データの削除</Title>
            <Text>
              連携の解除やデータの削除をご希望の場合は、アカウント設定から連携を解除するか、当社までご連絡ください。
            </Text>
            <Text c="dimmed" size="sm">
              最終更新日：2022年9月19日
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
