import type { Knowledge } from '../auth/schemas';

/** The sign-up form's choices of 当サービスを知ったきっかけ (spec 1 §5). */
export const knowledgeLabels: Record<Knowledge, string> = {
  search: '検索',
  article: '記事',
  advertisement: '広告',
  acquaintance: '知人の紹介',
  sale: '営業',
  other: 'その他',
};

/** IMAGE_MAX_PIXELS as the messages say it. */
export const IMAGE_MAX_PIXELS_LABEL = '5000万画素';
