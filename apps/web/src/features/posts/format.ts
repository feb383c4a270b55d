import { fromTokyoParts } from '@tenpo/domain';
import { tokyoDateTime } from '@/lib/format';

/** Dates as the post screens show them: YYYY/MM/DD HH:mm:ss in Asia/Tokyo (spec 2 §9). */

const FORM_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A `yyyy-MM-dd HH:mm:ss` without zone is already Tokyo time (the post form's format); an
 * instant with a zone (ISO) is turned to Tokyo. Null or unreadable: null.
 */
export const formatPostDate = (v: string | null | undefined): string | null => {
  if (!v) return null;
  const m = FORM_RE.exec(v.trim());
  if (m) return `${m[1]}/${m[2]}/${m[3]} ${m[4]}:${m[5]}:${m[6] ?? '00'}`;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return null;
  return tokyoDateTime(d);
};

/** A sortable key for a post date (the same two readings). */
export const postDateKey = (v: string | null | undefined): number => {
  if (!v) return Number.NEGATIVE_INFINITY;
  const m = FORM_RE.exec(v.trim());
  if (m) return fromTokyoParts(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  const t = new Date(v).getTime();
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
};
