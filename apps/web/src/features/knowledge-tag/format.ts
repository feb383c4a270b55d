import { tokyoDateTime } from '@/lib/format';

/** Spec 2 §9: YYYY/MM/DD HH:mm:ss on screen, in Tokyo time. */
export const formatSeenAt = (isoText: string): string => tokyoDateTime(new Date(isoText));
