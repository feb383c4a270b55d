import {
  Alert,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { POST_TOPIC_TYPES, TOPIC_FIELDS, TOPIC_LIMITS, type PostTopicType } from '@tenpo/domain';
import type { UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TokyoDateField } from './tokyo-date-field';

/** The fields of an event or offer as the form holds them (dates `yyyy-MM-dd HH:mm:ss` Tokyo). */
export type TopicValues = {
  title: string;
  start_date: string;
  end_date: string;
  coupon_code: string;
  redeem_link: string;
  terms: string;
};

export const EMPTY_TOPIC: TopicValues = {
  title: '',
  start_date: '',
  end_date: '',
  coupon_code: '',
  redeem_link: '',
  terms: '',
};

/**
 * The Google tab's post type (spec 2 §3: news, event, offer; ADR 0030): 最新情報 is a plain
 * post that may also go to the other channels; イベント and 特典 are Google-only, which the note
 * under the choice says.
 */
export function GooglePostTypeField({
  value,
  onChange,
  otherChannels,
}: {
  value: PostTopicType;
  onChange: (v: PostTopicType) => void;
  /** Whether other channels are connected (the note then says they are left out). */
  otherChannels: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="post-type-label">
        {t('posts.types.label')}
      </Text>
      <SegmentedControl
        aria-labelledby="post-type-label"
        value={value}
        onChange={(v) => onChange(v as PostTopicType)}
        data={POST_TOPIC_TYPES.map((k) => ({ value: k, label: t(`posts.types.${k}`) }))}
        w="fit-content"
      />
      {value !== 'news' && otherChannels && (
        <Alert color="blue" variant="light" p="xs">
          <Text size="sm">{t('posts.types.googleOnly')}</Text>
        </Alert>
      )}
    </Stack>
  );
}

type TopicFieldName = keyof TopicValues;

/**
 * An event's or offer's own fields (spec 2 §3): title and start/end for both; coupon code,
 * redeem link and terms for an offer. `error` gives the messages a field shows (once each).
 */
export function TopicFields<V extends TopicValues>({
  type,
  values,
  register,
  setDate,
  error,
  now,
}: {
  type: PostTopicType;
  values: TopicValues;
  register: UseFormRegister<V>;
  setDate: (field: 'start_date' | 'end_date', v: string) => void;
  error: (field: TopicFieldName) => string | null;
  now: () => Date;
}) {
  const { t } = useTranslation();
  const has = (f: TopicFieldName) => TOPIC_FIELDS[type].includes(f);
  // The form's values are a superset of TopicValues: its register takes these names.
  const reg = (f: TopicFieldName) => register(f as Parameters<UseFormRegister<V>>[0]);
  if (TOPIC_FIELDS[type].length === 0) return null;
  return (
    <Stack gap="md">
      <TextInput
        label={t('posts.topic.title')}
        withAsterisk
        description={`${[...values.title].length} / ${TOPIC_LIMITS.titleMax}`}
        error={error('title')}
        {...reg('title')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TokyoDateField
          label={t('posts.topic.start')}
          required
          value={values.start_date}
          onChange={(v) => setDate('start_date', v)}
          error={error('start_date')}
          now={now}
        />
        <TokyoDateField
          label={t('posts.topic.end')}
          required
          value={values.end_date}
          onChange={(v) => setDate('end_date', v)}
          error={error('end_date')}
          now={now}
        />
      </SimpleGrid>
      {has('coupon_code') && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('posts.topic.coupon')}
            description={t('posts.topic.optional')}
            error={error('coupon_code')}
            {...reg('coupon_code')}
          />
          <TextInput
            label={t('posts.topic.redeemLink')}
            description={t('posts.topic.optional')}
            placeholder="https://"
            error={error('redeem_link')}
            {...reg('redeem_link')}
          />
        </SimpleGrid>
      )}
      {has('terms') && (
        <Textarea
          label={t('posts.topic.terms')}
          description={t('posts.topic.optional')}
          autosize
          minRows={2}
          error={error('terms')}
          {...reg('terms')}
        />
      )}
    </Stack>
  );
}
