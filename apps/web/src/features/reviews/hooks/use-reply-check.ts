import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { checkReplyCall, reviewKeys, type ReviewFinding } from '../api/reviews-api';

/** How long typing pauses before the text is checked. */
export const REPLY_CHECK_DEBOUNCE_MS = 400;

const NONE: ReviewFinding[] = [];

/**
 * The compliance check of a reply as it is typed (`POST /reviews/check`, debounced, for the
 * review's store and reviewer: the same check as the send's). While a
 * newer text is being checked the last findings stay: a blocking phrase keeps 送信 disabled
 * until the check of the changed text says it is gone. A check that fails blocks nothing (the
 * server checks again when the reply is sent).
 */
export function useReplyCheck(review: { id: number; user_id: number }, text: string) {
  const [debounced] = useDebouncedValue(text, REPLY_CHECK_DEBOUNCE_MS);
  const comment = debounced.trim() === '' ? '' : debounced;
  const check = useQuery({
    queryKey: reviewKeys.check(review.id, comment),
    queryFn: ({ signal }) => checkReplyCall(review, comment, signal),
    enabled: comment !== '',
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
  const empty = text.trim() === '';
  const findings = empty || comment === '' ? NONE : (check.data?.findings ?? NONE);
  return {
    findings,
    blocked: findings.some((f) => f.severity === 'block'),
    checking: !empty && (text !== debounced || check.isFetching),
    failed: !empty && check.isError && !check.isFetching,
  };
}
