import { useMemo, useRef, useState } from 'react';
import {
  BUTTON_TYPE,
  checkPost,
  checkTopic,
  LINK_BUTTON_TYPES,
  MEDIA_RULES,
  OFFERED_BUTTON_TYPES,
  publisherByKey,
  TOPIC_CHANNEL,
  type ButtonType,
  type PostTopicType,
  type PublisherKey,
} from '@tenpo/domain';
import { useForm, type FormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import type { CreatePostInput, PostRow } from '../api/posts-api';
import { EMPTY_TOPIC, type TopicValues } from '../components/google-post-type';
import type { PostMedia } from '../media/read-media';
import { draftKey, readDraft, usePostDraft } from './use-post-draft';
import { usePostMedia } from './use-post-media';

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
export type Field = (typeof FIELDS)[number];

export const labelOf = (k: PublisherKey) => publisherByKey(k)?.label ?? k;

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

/** What the form is given: the stores it posts for, their channels, and where a post goes. */
export type PostFormProps = {
  storeIds: readonly number[];
  channels: readonly PublisherKey[];
  mainPhone: string | null;
  initial: PostRow | null;
  /** Resolves true once the post was accepted (the draft is then forgotten). */
  onSubmit: (input: CreatePostInput) => Promise<boolean>;
  now?: () => Date;
};

/**
 * Where the form starts: its pristine state (from the copied post, or empty), or the draft
 * kept for this user and store selection (issue 23 item 3; a copy keeps none).
 */
function usePostFormStart({
  storeIds,
  channels,
  mainPhone,
  initial,
}: Pick<PostFormProps, 'storeIds' | 'channels' | 'mainPhone' | 'initial'>) {
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
  return { key, pristine, start };
}

/**
 * Every rule is domain's `checkPost` (and `checkTopic`), judged as the user edits; `shown` holds
 * the messages visible yet, each once, in field order (spec 2 §4).
 */
function usePostErrors(p: {
  values: PostFormValues;
  dirtyFields: FormState<PostFormValues>['dirtyFields'];
  submitted: boolean;
  media: PostMedia[];
  buttonType: number;
  postType: PostTopicType;
  targetList: PublisherKey[];
  channels: readonly PublisherKey[];
  now: () => Date;
}) {
  const { values, dirtyFields, submitted, media, buttonType, postType, targetList, channels } = p;
  const { now } = p;
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
  return { errors, shown, fieldError };
}

export type PostFormState = ReturnType<typeof usePostForm>;

/**
 * The post form's state and handlers (spec 2 §3–§5): its values, the active tab and the ticked
 * channels, Google's post type, the files, the draft, the messages shown, and the submit that
 * sends only when no rule is broken.
 */
export function usePostForm(props: PostFormProps) {
  const { storeIds, channels, mainPhone, initial, onSubmit, now = () => new Date() } = props;
  const { t } = useTranslation();
  const { key, pristine, start } = usePostFormStart(props);
  const form = useForm<PostFormValues>({ defaultValues: start.values });
  const values = form.watch();
  const { dirtyFields } = form.formState;
  const [active, setActive] = useState<PublisherKey | undefined>(() => start.active ?? undefined);
  // The channels ticked besides the active tab (which is always a target).
  const [ticked, setTicked] = useState(() => new Set(start.ticked));
  // Google's post type (ADR 0030). An event or an offer goes to Google only.
  const [postType, setPostType] = useState<PostTopicType>(start.postType);
  const googleOnly = postType !== 'news';
  const files = usePostMedia(initial);
  const { media, reading } = files;
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);

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

  const limit = (key: PublisherKey | undefined) => (key ? MEDIA_RULES[key].maxCount : 0);

  /** Spec 2 §4: switching tab truncates the files to that channel's limit (and revalidates). */
  const switchTab = (key: PublisherKey) => {
    setActive(key);
    files.truncate(limit(key));
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

  // Spec 2 §4: on a one-file channel (the business listing) removing clears all.
  const removeMedia = (key: string) => files.remove(key, limit(active) === 1);

  const targetList = googleOnly
    ? channels.filter((c) => c === TOPIC_CHANNEL)
    : channels.filter((c) => c === active || ticked.has(c));
  // Google ignores an offer's call to action (providers.md §1.6): the offer has no button.
  const buttonType = postType === 'offer' ? BUTTON_TYPE.none : values.button_type;
  const { errors, shown, fieldError } = usePostErrors({
    values,
    dirtyFields,
    submitted,
    media,
    buttonType,
    postType,
    targetList,
    channels,
    now,
  });

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

  return {
    form,
    values,
    active,
    switchTab,
    postType,
    setPostType,
    googleOnly,
    targetList,
    toggleTarget,
    media,
    reading,
    addFiles: files.addFiles,
    removeMedia,
    shown,
    fieldError,
    bt,
    needsLink,
    blocked,
    buttonOptions,
    sending,
    submit,
    draft,
    discardDraft,
    now,
  };
}
