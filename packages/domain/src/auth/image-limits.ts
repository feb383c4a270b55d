// Apart from the schemas (no zod here), so that a screen that only checks a picked file's type
// and size does not load zod with them (ADR 0074).

/** Logo and avatar image limit: 3072 KB (DESIGN §10). */
export const IMAGE_SIZE_LIMIT_KB = 3072;
/**
 * Pixels (width × height) an image field (logo, agency logo, favicon) may declare (issue 22): a
 * small PNG may declare 50000×50000, and whoever decodes it pays 10 GB.
 */
export const IMAGE_MAX_PIXELS = 50_000_000;
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
