import { IMAGE_SIZE_LIMIT_KB, ja } from '@tenpo/domain';

/** Avatar and logo files: an image within 3072 KB (spec 1 §5, DESIGN §10). Null when fine. */
export const imageFileError = (f: File): string | null => {
  if (!f.type.startsWith('image/')) return ja.imageOnly;
  if (f.size > IMAGE_SIZE_LIMIT_KB * 1024) return ja.imageTooLarge(IMAGE_SIZE_LIMIT_KB);
  return null;
};
