import { IMAGE_MIME_TYPES, IMAGE_SIZE_LIMIT_KB, ja } from '@tenpo/domain';

const accepted: readonly string[] = IMAGE_MIME_TYPES;

/**
 * Avatar and logo files: an image within 3072 KB (spec 1 §5, DESIGN §10), of a kind the server
 * takes (JPEG, PNG, GIF, WebP), as the file pickers offer. Null when fine.
 */
export const imageFileError = (f: File): string | null => {
  if (!accepted.includes(f.type)) return ja.imageOnly;
  if (f.size > IMAGE_SIZE_LIMIT_KB * 1024) return ja.imageTooLarge(IMAGE_SIZE_LIMIT_KB);
  return null;
};
