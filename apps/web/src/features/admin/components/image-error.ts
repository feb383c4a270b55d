import { IMAGE_MIME_TYPES, IMAGE_SIZE_LIMIT_KB, ja } from '@tenpo/domain';

const accepted: readonly string[] = IMAGE_MIME_TYPES;

/** A logo or favicon file: an image the server takes, within 3072 KB. Null when fine. */
export const imageError = (f: File): string | null => {
  if (!accepted.includes(f.type)) return ja.imageOnly;
  if (f.size > IMAGE_SIZE_LIMIT_KB * 1024) return ja.imageTooLarge(IMAGE_SIZE_LIMIT_KB);
  return null;
};
