import { formatTokyo } from '@tenpo/domain';

/**
 * Date and time on screen (spec 2 §9): YYYY/MM/DD HH:mm:ss in Asia/Tokyo, whatever the browser's
 * zone. The domain's Tokyo clock is a fixed UTC+9 (ADR 0078), no `Intl.DateTimeFormat` with a
 * time zone: building one loads the browser's zone data, which was 95 ms of /posts' first render
 * on a phone's CPU (issue 23 item 5).
 */
export const tokyoDateTime = (d: Date): string => formatTokyo(d, 'YYYY/MM/DD HH:mm:ss');
