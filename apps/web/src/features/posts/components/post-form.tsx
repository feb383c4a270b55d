import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  CHANNEL_LIMITS,
  CHANNEL_POST_RULES,
  checkPost,
  ja as domainJa,
  LINK_BUTTON_TYPES,
  MEDIA_RULES,
  OFFERED_BUTTON_TYPES,
  BUTTON_TYPE,
  checkTopic,
  publisherByKey,
  TOPIC_CHANNEL,
  textLength,
  type ButtonType,
  type PostTopicType,
  type PublisherKey,
} from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { draftKey, readDraft, usePostDraft } from '../hooks/use-post-draft';
import type { CreatePostInput, PostRow } from '../api/posts-api';
import { mediaReader, releasePreview, type PostMedia } from '../media/read-media';
import {
  EMPTY_TOPIC,
  GooglePostTypeField,
  TopicFields,
  type TopicValues,
} from './google-post-type';
import { MediaField } from './media-field';
import { TokyoDateField } from './tokyo-date-field';

export type PostFormValues = TopicValues & {
  content: string;
  button_type: number;
  button_link: string;
  phone_number: string;
  publish_date: string;
  delete_date: string;
};

/** The fields in the order their messages are shown (a message shows once, spec 2 §4). */
const FIELDS = [
  'shared_sns_type',
  'title',
  'content',
  'start_date',
  'end_date',
  'coupon_code',
  'redeem_link',
  'terms',
  'button_type',
  'button_link',
  'phone_number',
  'medias',
  'publish_date',
  'delete_date',
] as const;
type Field = (typeof FIELDS)[number];

const labelOf = (k: PublisherKey) => publisherByKey(k)?.label ?? k;

const initialValues = (initial: PostRow | null, mainPhone: string | null): PostFormValues => {
  const bt = initial?.button_type ?? BUTTON_TYPE.none;
  // A copied call-now button keeps the business's current phone, or falls back to none.
  const callNow = bt === BUTTON_TYPE.callNow;
  const topic = initial?.topic ?? {};
  const text = (k: keyof TopicValues) => topic[k] ?? EMPTY_TOPIC[k];
  return {
    title: text('title'),
    // A copy's dates are for the copy to choose again, as its publish and removal dates are.
    start_date: '',
    end_date: '',
    coupon_code: text('coupon_code'),
    redeem_link: text('redeem_link'),
    terms: text('terms'),
    content: initial?.content ?? '',
    button_type: callNow && !mainPhone ? BUTTON_TYPE.none : bt,
    button_link: initial?.button_link ?? '',
    phone_number: callNow && mainPhone ? mainPhone : '',
    publish_date: '',
    delete_date: '',
  };
};

const initialTargets = (initial: PostRow | null, channels: readonly PublisherKey[]) => {
  const fromCopy = [
    ...(initial?.shared_sns_type ?? '').split(','),
    ...(initial?.targets ?? []).map((t) => t.publisher_key),
  ]
    .map((s) => s.trim())
    .filter((s): s is PublisherKey => (channels as readonly string[]).includes(s));
  return new Set<PublisherKey>(fromCopy);
};

/** What a draft keeps (issue 23 item 3): the fields, channels and dates; files cannot be kept. */
type PostDraft = {
  values: PostFormValues;
  active: PublisherKey | null;
  ticked: PublisherKey[];
  postType: PostTopicType;
  hadFiles: boolean;
};

/** A stored draft, trimmed to the channels connected now. */
const fromDraft = (
  d: PostDraft,
  pristine: PostDraft,
  channels: readonly PublisherKey[],
): PostDraft => {
  const known = (k: unknown): k is PublisherKey =>
    typeof k === 'string' && (channels as readonly string[]).includes(k);
  const values = { ...pristine.values };
  for (const k of Object.keys(values) as (keyof PostFormValues)[]) {
    const v = d.values?.[k];
    if (typeof v === typeof values[k]) (values as Record<string, unknown>)[k] = v;
  }
  const postType =
    d.postType === 'event' || d.postType === 'offer' || d.postType === 'news'
      ? channels.includes(TOPIC_CHANNEL)
        ? d.postType
        : 'news'
      : pristine.postType;
  return {
    values,
    active: known(d.active) ? d.active : pristine.active,
    ticked: Array.isArray(d.ticked) ? d.ticked.filter(known) : pristine.ticked,
    postType,
    hadFiles: d.hadFiles === true,
  };
};

/**
 * The post form of spec 2 §3–§5: one tab per connected channel (the active tab decides the
 * media limits and the count display, and is always a target; the other connected channels can
 * be ticked as targets too), content, button type and link (call now with the business's main
 * phone, read-only), media, publish and removal dates in Tokyo time. Every rule is domain's
 * `checkPost`, judged as the user edits; submit is disabled by the spec's three rules, and a
 * click with other errors shows them instead of sending.
 */
export function PostForm({
  storeIds,
  channels,
  mainPhone,
  initial,
  onSubmit,
  now = () => new Date(),
}: {
  storeIds: readonly number[];
  channels: readonly PublisherKey[];
  mainPhone: string | null;
  initial: PostRow | null;
  /** Resolves true once the post was accepted (the draft is then forgotten). */
  onSubmit: (input: CreatePostInput) => Promise<boolean>;
  now?: () => Date;
}) {
  const { t } = useTranslation();
  const userId = useSession().user?.id ?? null;
  // A new post keeps a draft per user and store selection (issue 23 item 3); a copy does not.
  const key = initial === null && userId !== null ? draftKey(userId, storeIds) : null;
  const pristine = useMemo(
    (): PostDraft => ({
      values: initialValues(initial, mainPhone),
      active: [...initialTargets(initial, channels)][0] ?? channels[0] ?? null,
      ticked: [...initialTargets(initial, channels)],
      postType: initial?.post_type && channels.includes(TOPIC_CHANNEL) ? initial.post_type : 'news',
      hadFiles: false,
    }),
    // The form starts once; later changes of these props do not reset it.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the first props only, by design
    [],
  );
  const [start] = useState<PostDraft>(() => {
    const saved = key ? readDraft<PostDraft>(key) : null;
    return saved ? fromDraft(saved, pristine, channels) : pristine;
  });
  const form = useForm<PostFormValues>({ defaultValues: start.values });
  const values = form.watch();
  const { dirtyFields } = form.formState;
  const [active, setActive] = useState<PublisherKey | undefined>(() => start.active ?? undefined);
  // The channels ticked besides the active tab (which is always a target).
  const [ticked, setTicked] = useState(() => new Set(start.ticked));
  // Google's post type (ADR 0030). An event or an offer goes to Google only.
  const [postType, setPostType] = useState<PostTopicType>(start.postType);
  const googleOnly = postType !== 'news';
  const [media, setMedia] = useState<PostMedia[]>([]);
  const [reading, setReading] = useState(0);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const mediaRef = useRef(media);
  mediaRef.current = media;

  const snapshot: PostDraft = {
    values: { ...values },
    active: active ?? null,
    ticked: [...ticked].sort(),
    postType,
    hadFiles: media.length > 0,
  };
  const changed =
    JSON.stringify({ ...snapshot, hadFiles: false }) !==
      JSON.stringify({ ...pristine, ticked: [...pristine.ticked].sort() }) || media.length > 0;
  const draft = usePostDraft<PostDraft>(key, snapshot, changed);
  // Set while a send that may leave the page is under way: that move is no leaving.
  const leaving = useRef(false);
  useLeaveGuard(changed && !leaving.current, t('posts.draft.leave'), { leaving });

  const discardDraft = () => {
    draft.discard();
    form.reset(pristine.values);
    setActive(pristine.active ?? undefined);
    setTicked(new Set(pristine.ticked));
    setPostType(pristine.postType);
    setSubmitted(false);
  };

  // A copy starts with the post's media, sent back as their URLs.
  useEffect(() => {
    const urls = initial?.media_url ?? [];
    if (urls.length === 0) return;
    let live = true;
    setReading((n) => n + 1);
    void Promise.all(urls.map((u) => mediaReader.readUrl(u)))
      .then((read) => {
        if (live) setMedia(read);
      })
      .finally(() => setReading((n) => n - 1));
    return () => {
      live = false;
    };
  }, [initial]);
  useEffect(() => () => mediaRef.current.forEach(releasePreview), []);

  const limit = (key: PublisherKey | undefined) => (key ? MEDIA_RULES[key].maxCount : 0);

  /** Spec 2 §4: switching tab truncates the files to that channel's limit (and revalidates). */
  const switchTab = (key: PublisherKey) => {
    setActive(key);
    setMedia((list) => {
      const max = limit(key);
      list.slice(max).forEach(releasePreview);
      return list.length > max ? list.slice(0, max) : list;
    });
  };

  const toggleTarget = (key: PublisherKey, on: boolean) => {
    if (key === active) return;
    setTicked((s) => {
      const next = new Set(s);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  };

  const addFiles = (files: File[]) => {
    if (files.length === 0) return;
    setReading((n) => n + 1);
    void Promise.all(files.map((f) => mediaReader.readFile(f)))
      .then((read) => setMedia((list) => [...list, ...read]))
      .finally(() => setReading((n) => n - 1));
  };

  const removeMedia = (key: string) =>
    setMedia((list) => {
      // Spec 2 §4: on a one-file channel (the business listing) removing clears all.
      const gone = limit(active) === 1 ? list : list.filter((m) => m.key === key);
      gone.forEach(releasePreview);
      return list.filter((m) => !gone.includes(m));
    });

  const targetList = googleOnly
    ? channels.filter((c) => c === TOPIC_CHANNEL)
    : channels.filter((c) => c === active || ticked.has(c));
  // Google ignores an offer's call to action (providers.md §1.6): the offer has no button.
  const buttonType = postType === 'offer' ? BUTTON_TYPE.none : values.button_type;
  const targetKey = targetList.join(',');
  const errors = useMemo(() => {
    const metas = media.filter((m) => m.error === null).map((m) => m.meta);
    const e = checkPost(
      {
        content: values.content,
        button_type: buttonType,
        button_link: values.button_link,
        phone_number: values.phone_number,
        shared_sns_type: targetList,
        publish_date: values.publish_date,
        delete_date: values.delete_date,
        connected: channels,
      },
      metas,
      now(),
    );
    Object.assign(e, checkTopic(postType, values, now()).errors);
    const helper = media.flatMap((m) => (m.error ? [m.error] : []));
    if (helper.length > 0) e.medias = [...new Set([...helper, ...(e.medias ?? [])])];
    return e;
    // `values` is a fresh object each render; its fields are the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- values' fields stand for values; `now` is a clock, not an input
  }, [
    values.content,
    buttonType,
    postType,
    values.title,
    values.start_date,
    values.end_date,
    values.coupon_code,
    values.redeem_link,
    values.terms,
    values.button_link,
    values.phone_number,
    values.publish_date,
    values.delete_date,
    media,
    targetKey,
    channels,
  ]);

  /** Which fields show their messages yet: edited ones, always-visible ones, or all after a try. */
  const visible = (f: Field): boolean => {
    if (submitted) return true;
    switch (f) {
      case 'content':
      case 'button_link':
      case 'title':
      case 'coupon_code':
      case 'redeem_link':
      case 'terms':
        return Boolean(dirtyFields[f]);
      case 'publish_date':
      case 'delete_date':
      case 'start_date':
      case 'end_date':
        return values[f] !== '';
      default:
        return true;
    }
  };
  // Each message once, in field order (spec 2 §4).
  const shown = (() => {
    const seen = new Set<string>();
    const out: Partial<Record<Field, string[]>> = {};
    for (const f of FIELDS) {
      if (!visible(f)) continue;
      const lines = (errors[f] ?? []).filter((l) => !seen.has(l));
      lines.forEach((l) => seen.add(l));
      if (lines.length > 0) out[f] = lines;
    }
    return out;
  })();
  const fieldError = (f: Field) => shown[f]?.join('\n') ?? null;

  const bt = buttonType as ButtonType;
  const needsLink = LINK_BUTTON_TYPES.includes(bt);
  const blocked =
    values.content.trim() === '' ||
    (needsLink && values.button_link.trim() === '') ||
    (errors.medias?.length ?? 0) > 0 ||
    reading > 0;

  const buttonOptions = OFFERED_BUTTON_TYPES.filter(
    (b) => b !== BUTTON_TYPE.callNow || mainPhone !== null,
  ).map((b) => ({ value: String(b), label: t(`posts.buttonTypes.${b}`) }));

  const submit = form.handleSubmit(async (v) => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    setSending(true);
    leaving.current = true;
    let accepted = false;
    try {
      accepted = await onSubmit({
        userIds: storeIds,
        content: v.content,
        buttonType: bt,
        buttonLink: needsLink ? v.button_link.trim() : '',
        phoneNumber: bt === BUTTON_TYPE.callNow ? v.phone_number : '',
        channels: targetList,
        publishDate: v.publish_date,
        deleteDate: v.delete_date,
        medias: media.map((m) => m.source),
        postType,
        topic: googleOnly
          ? {
              title: v.title,
              start_date: v.start_date,
              end_date: v.end_date,
              coupon_code: v.coupon_code,
              redeem_link: v.redeem_link,
              terms: v.terms,
            }
          : null,
      });
      if (accepted) draft.finish();
    } finally {
      if (!accepted) leaving.current = false;
      setSending(false);
    }
  });

  if (!active || channels.length === 0) {
    return (
      <Alert color="yellow" variant="light">
        {t('posts.noChannels')}
      </Alert>
    );
  }

  const textLimit = CHANNEL_LIMITS[active];
  const notRemovable =
    values.delete_date !== ''
      ? targetList.filter((c) => !CHANNEL_POST_RULES[c].removable).map(labelOf)
      : [];

  const body = (
    <Stack gap="md" pt="md">
      {active === TOPIC_CHANNEL && (
        <GooglePostTypeField
          value={postType}
          onChange={setPostType}
          otherChannels={channels.length > 1}
        />
      )}
      {channels.length > 1 && (
        <Checkbox.Group
          label={t('posts.channelsLabel')}
          description={t('posts.channelsHint')}
          value={targetList}
          error={fieldError('shared_sns_type')}
        >
          <Group mt={4}>
            {channels.map((c) => (
              <Checkbox
                key={c}
                value={c}
                label={labelOf(c)}
                disabled={c === active || googleOnly}
                onChange={(e) => toggleTarget(c, e.currentTarget.checked)}
              />
            ))}
          </Group>
        </Checkbox.Group>
      )}
      {channels.length === 1 && fieldError('shared_sns_type') && (
        <Text c="red" size="sm">
          {fieldError('shared_sns_type')}
        </Text>
      )}
      {googleOnly && (
        <TopicFields
          type={postType}
          values={values}
          register={form.register}
          setDate={(f, v) => form.setValue(f, v, { shouldDirty: true })}
          error={fieldError}
          now={now}
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
      {postType !== 'offer' && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('posts.form.buttonType')}
            data={buttonOptions}
            value={String(values.button_type)}
            allowDeselect={false}
            error={fieldError('button_type')}
            onChange={(v) => {
              const n = Number(v ?? 0);
              form.setValue('button_type', n, { shouldDirty: true });
              form.setValue('phone_number', n === BUTTON_TYPE.callNow ? (mainPhone ?? '') : '');
            }}
          />
          {needsLink && (
            <TextInput
              label={t('posts.form.buttonLink')}
              placeholder="https://"
              withAsterisk
              error={fieldError('button_link')}
              {...form.register('button_link')}
            />
          )}
          {bt === BUTTON_TYPE.callNow && (
            <TextInput
              label={t('posts.form.phone')}
              description={t('posts.form.phoneHint')}
              readOnly
              value={values.phone_number}
              error={fieldError('phone_number')}
            />
          )}
        </SimpleGrid>
      )}
      <MediaField
        channel={active}
        items={media}
        reading={reading > 0}
        errors={shown.medias ?? []}
        onAdd={addFiles}
        onRemove={removeMedia}
      />
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
      {notRemovable.map((label) => (
        <Text key={label} size="sm" c="orange">
          {domainJa.postNotRemovable(label)}
        </Text>
      ))}
      <Group justify="flex-end">
        <Button type="submit" disabled={blocked} loading={sending}>
          {t('posts.form.submit')}
        </Button>
      </Group>
    </Stack>
  );

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={(e) => void submit(e)} noValidate>
        {draft.restored && (
          <Alert color="blue" variant="light" mb="sm" role="status">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text size="sm">{t('posts.draft.restored')}</Text>
                {draft.restored.hadFiles && <Text size="sm">{t('posts.draft.filesLost')}</Text>}
              </Stack>
              <Button size="xs" variant="default" onClick={discardDraft}>
                {t('posts.draft.discard')}
              </Button>
            </Group>
          </Alert>
        )}
        {storeIds.length > 1 && (
          <Alert color="blue" variant="light" mb="sm">
            {t('posts.stores', { count: storeIds.length })}
          </Alert>
        )}
        <Tabs
          value={active}
          onChange={(v) => v && switchTab(v as PublisherKey)}
          keepMounted={false}
        >
          <Tabs.List>
            {channels.map((c) => (
              <Tabs.Tab key={c} value={c} disabled={googleOnly && c !== TOPIC_CHANNEL}>
                {labelOf(c)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {channels.map((c) => (
            <Tabs.Panel key={c} value={c}>
              {c === active && body}
            </Tabs.Panel>
          ))}
        </Tabs>
      </form>
    </Paper>
  );
}
