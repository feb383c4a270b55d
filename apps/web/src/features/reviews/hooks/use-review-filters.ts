import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ReviewFilters } from '../api/reviews-api';
import { DEFAULT_REVIEW_FILTERS, readReviewFilters, writeReviewFilters } from '../filters';

/**
 * The list's filters, read from and written to the URL's search parameters. Any change but the
 * page's goes back to page 1; the URL is replaced, not pushed, so Back leaves the screen.
 */
export function useReviewFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readReviewFilters(params), [params]);

  const update = useCallback(
    (patch: Partial<ReviewFilters>) =>
      setParams(
        (prev) => writeReviewFilters({ ...readReviewFilters(prev), page: 1, ...patch }, prev),
        { replace: true },
      ),
    [setParams],
  );

  const clear = useCallback(
    () =>
      setParams(
        (prev) =>
          writeReviewFilters(
            { ...DEFAULT_REVIEW_FILTERS, perPage: readReviewFilters(prev).perPage },
            prev,
          ),
        { replace: true },
      ),
    [setParams],
  );

  return { filters, update, clear };
}
