import { useCallback, useState } from 'react';

/**
 * A reply being written is kept in the browser until it is sent (docs/product/reviews.md): one
 * draft per review, written as it is typed, so a reload or an interruption loses nothing.
 */
const PREFIX = 'tenpo.reviewDraft';

export const reviewDraftKey = (reviewId: number): string => `${PREFIX}:${reviewId}`;

export const readReviewDraft = (reviewId: number): string | null => {
  try {
    const raw = localStorage.getItem(reviewDraftKey(reviewId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { data?: unknown };
    return typeof parsed.data === 'string' ? parsed.data : null;
  } catch {
    return null;
  }
};

export const writeReviewDraft = (reviewId: number, text: string): void => {
  try {
    localStorage.setItem(
      reviewDraftKey(reviewId),
      JSON.stringify({ savedAt: new Date().toISOString(), data: text }),
    );
  } catch {
    // A full or blocked storage keeps no draft; the editor still works.
  }
};

export const removeReviewDraft = (reviewId: number): void => {
  try {
    localStorage.removeItem(reviewDraftKey(reviewId));
  } catch {
    // nothing to do
  }
};

/**
 * The editor's text: the draft kept for the review, else `start` (the reply already sent, or
 * nothing). Each change is written at once; back at `start`, or emptied, the draft is removed.
 * `finish` forgets the draft (the reply was sent).
 */
export function useReplyDraft(reviewId: number, start: string) {
  const [restored] = useState(() => readReviewDraft(reviewId));
  const [text, setTextState] = useState(restored ?? start);

  const setText = useCallback(
    (v: string) => {
      setTextState(v);
      if (v === start || v.trim() === '') removeReviewDraft(reviewId);
      else writeReviewDraft(reviewId, v);
    },
    [reviewId, start],
  );

  const finish = useCallback(() => removeReviewDraft(reviewId), [reviewId]);

  return { text, setText, restored: restored !== null && restored !== start, finish };
}
