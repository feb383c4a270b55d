import { List, ScrollArea, Stack, Text, Title } from '@mantine/core';

/**
 * The default terms of use (spec 1 §9: dated September 2023; the system is provided as-is with
 * limited liability; listing data, device information and social-account credentials may be
 * sent to the developer). The two brand variants' own texts are not part of this screen yet.
 */
export function TermsText({ height = 320 }: { height?: number }) {
  return (
    <ScrollArea h={height} type="auto" offsetScrollbars>
      <Stack gap="xs" pr="sm">
        <Title order={4}>Tenpo 利用規約</Title>
        <Text size="sm">
          本規約は、Tenpo（以下「本システム」）の利用条件を定めるものです。利用者は本規約に同意のうえ本システムを利用するものとします。
        </Text>
        <Title order={5}>第1条（提供条件）</Title>
        <Text size="sm">
          本システムは現状有姿で提供されます。当社は、本システムが利用者の特定の目的に適合すること、及び不具合が生じないことを保証しません。
        </Text>
        <Title order={5}>第2条（責任の制限）</Title>
        <Text size="sm">
          本システムの利用により利用者に生じた損害について、当社は故意又は重過失による場合を除き責任を負いません。責任を負う場合も、その範囲は直接かつ通常の損害に限られます。
        </Text>
        <Title order={5}>第3条（情報の送信）</Title>
        <Text size="sm">本システムの提供のため、次の情報が開発者に送信される場合があります。</Text>
        <List size="sm">
          <List.Item>Google ビジネスプロフィール等の店舗掲載情報</List.Item>
          <List.Item>ご利用の端末に関する情報</List.Item>
          <List.Item>連携した SNS アカウントの認証情報</List.Item>
        </List>
        <Title order={5}>第4条（規約の変更）</Title>
        <Text size="sm">
          当社は必要に応じて本規約を変更できます。変更後の規約は本システム上に表示した時点から効力を生じます。
        </Text>
        <Text size="sm" c="dimmed">
          2023年9月 制定
        </Text>
      </Stack>
    </ScrollArea>
  );
}
