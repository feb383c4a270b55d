import type { ReactNode } from 'react';
import {
  Button,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  BUTTON_TYPE,
  CHANNEL_LIMITS,
  CHANNEL_POST_RULES,
  ja as domainJa,
  TOPIC_CHANNEL,
  textLength,
  type PublisherKey,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { labelOf, type PostFormState } from '../hooks/use-post-form';
import { GooglePostTypeField, TopicFields } from './google-post-type';
import { MediaField } from './media-field';
import { TokyoDateField } from './tokyo-date-field';

type FieldsProps = {
  s: PostFormState;
  channels: readonly PublisherKey[];
  mainPhone: string | null;
  active: PublisherKey;
  /** Shown just above the submit button (the approval rule's notice, ADR 0095). */
  notice?: ReactNode;
};

/** The channels a post goes to: the active tab's and any ticked besides it. */
function ChannelTargets({ s, channels, active }: Omit<FieldsProps, 'mainPhone'>) {
  const { t } = useTranslation();
  const { fieldError } = s;
  if (channels.length > 1)
    return (
      <Checkbox.Group
        label={t('posts.channelsLabel')}
        description={t('posts.channelsHint')}
        value={s.targetList}
        error={fieldError('shared_sns_type')}
      >
        <Group mt={4}>
          {channels.map((c) => (
            <Checkbox
              key={c}
              value={c}
              label={labelOf(c)}
              disabled={c === active || s.googleOnly}
              onChange={(e) => s.toggleTarget(c, e.currentTarget.checked)}
            />
          ))}
        </Group>
      </Checkbox.Group>
    );
  if (channels.length === 1 && fieldError('shared_sns_type'))
    return (
      <Text c="red" size="sm">
        {fieldError('shared_sns_type')}
      </Text>
    );
  return null;
}

/** The call to action: its type, and the link or the business's main phone (read-only). */
function ButtonFields({ s, mainPhone }: Pick<FieldsProps, 's' | 'mainPhone'>) {
  const { t } = useTranslation();
  const { form, values, fieldError } = s;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Select
        label={t('posts.form.buttonType')}
        data={s.buttonOptions}
        value={String(values.button_type)}
        allowDeselect={false}
        error={fieldError('button_type')}
        onChange={(v) => {
          const n = Number(v ?? 0);
          form.setValue('button_type', n, { shouldDirty: true });
          form.setValue('phone_number', n === BUTTON_TYPE.callNow ? (mainPhone ?? '') : '');
        }}
      />
      {s.needsLink && (
        <TextInput
          label={t('posts.form.buttonLink')}
          placeholder="https://"
          withAsterisk
          error={fieldError('button_link')}
          {...form.register('button_link')}
        />
      )}
      {s.bt === BUTTON_TYPE.callNow && (
        <TextInput
          label={t('posts.form.phone')}
          description={t('posts.form.phoneHint')}
          readOnly
          value={values.phone_number}
          error={fieldError('phone_number')}
        />
      )}
    </SimpleGrid>
  );
}

/** The publish and removal dates, in Tokyo time. */
function DateFields({ s }: Pick<FieldsProps, 's'>) {
  const { t } = useTranslation();
  const { form, values, fieldError, now } = s;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TokyoDateField
        label={t('posts.form.publishDate')}
        description={t('posts.form.publishHint')}
        value={values.publish_date}
        onChange={(v) => form.setValue('publish_date', v, { shouldDirty: true })}
        error={fieldError('publish_date')}
        now={now}
      />
      <TokyoDateField
        label={t('posts.form.deleteDate')}
        description={t('posts.form.deleteHint')}
        value={values.delete_date}
        onChange={(v) => form.setValue('delete_date', v, { shouldDirty: true })}
        error={fieldError('delete_date')}
        now={now}
      />
    </SimpleGrid>
  );
}

/**
 * The active tab's fields (spec 2 §3–§5): Google's post type and topic, the target channels,
 * content with its count, the button, media, the dates, and submit.
 */
export function PostFormFields({ s, channels, mainPhone, active, notice }: FieldsProps) {
  const { t } = useTranslation();
  const { form, values, postType, fieldError } = s;
  const textLimit = CHANNEL_LIMITS[active];
  const notRemovable =
    values.delete_date !== ''
      ? s.targetList.filter((c) => !CHANNEL_POST_RULES[c].removable).map(labelOf)
      : [];

  return (
    <Stack gap="md" pt="md">
      {active === TOPIC_CHANNEL && (
        <GooglePostTypeField
          value={postType}
          onChange={s.setPostType}
          otherChannels={channels.length > 1}
        />
      )}
      <ChannelTargets s={s} channels={channels} active={active} />
      {s.googleOnly && (
        <TopicFields
          type={postType}
          values={values}
          register={form.register}
          setDate={(f, v) => form.setValue(f, v, { shouldDirty: true })}
          error={fieldError}
          now={s.now}
        />
      )}
      <Textarea
        label={t('posts.form.content')}
        placeholder={t('posts.form.contentPlaceholder')}
        withAsterisk
        autosize
        minRows={5}
        description={`${textLength(values.content, textLimit.textCounting)} / ${textLimit.textMaxLength}`}
        error={fieldError('content')}
        styles={{ error: { whiteSpace: 'pre-line' } }}
        {...form.register('content')}
      />
      {postType !== 'offer' && <ButtonFields s={s} mainPhone={mainPhone} />}
      <MediaField
        channel={active}
        items={s.media}
        reading={s.reading > 0}
        errors={s.shown.medias ?? []}
        onAdd={s.addFiles}
        onRemove={s.removeMedia}
      />
      <DateFields s={s} />
      {notRemovable.map((label) => (
        <Text key={label} size="sm" c="orange">
          {domainJa.postNotRemovable(label)}
        </Text>
      ))}
      {notice}
      <Group justify="flex-end">
        <Button type="submit" disabled={s.blocked} loading={s.sending}>
          {t('posts.form.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
