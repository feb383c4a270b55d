import { notifications } from '@mantine/notifications';
import { ApiError } from '@/lib/api-client';
import { ja } from '@/i18n/ja';
import { TOAST_MS } from '@/lib/timing';

// In a file of their own so that /posts, which shows these errors, does not load the post form.

/**
 * Spec 2 §8: a failure whose answer carries an errors object shows its messages joined by line
 * breaks; any other failure shows the generic post-error message.
 */
export const postErrorLines = (e: unknown): string[] => {
  if (e instanceof ApiError) {
    const lines = Object.values(e.envelope?.errors ?? {})
      .flat()
      .filter((l) => l.length > 0);
    if (lines.length > 0) return [...new Set(lines)];
  }
  return [ja.posts.error];
};

export const toastPostError = (e: unknown) =>
  notifications.show({
    color: 'red',
    message: postErrorLines(e).join('\n'),
    autoClose: TOAST_MS,
    style: { whiteSpace: 'pre-line' },
  });
