import { useEffect, useRef, useState } from 'react';
import type { PostRow } from '../api/posts-api';
import { mediaReader, releasePreview, type PostMedia } from '../media/read-media';

/**
 * The post form's files: those read so far (a copy starts with the post's media, read from
 * their URLs), how many reads are under way, and the ways to add, remove and cut them. Every
 * preview is released when it leaves the list or the form unmounts.
 */
export function usePostMedia(initial: PostRow | null) {
  const [media, setMedia] = useState<PostMedia[]>([]);
  const [reading, setReading] = useState(0);
  const mediaRef = useRef(media);
  mediaRef.current = media;

  // A copy starts with the post's media, sent back as their URLs.
  useEffect(() => {
    const urls = initial?.media_url ?? [];
    if (urls.length === 0) return;
    let live = true;
    setReading((n) => n + 1);
    void Promise.all(urls.map((u) => mediaReader.readUrl(u)))
      .then((read) => {
        if (live) setMedia(read);
      })
      .finally(() => setReading((n) => n - 1));
    return () => {
      live = false;
    };
  }, [initial]);
  useEffect(() => () => mediaRef.current.forEach(releasePreview), []);

  /** Keeps at most `max` files (a tab with a lower limit was chosen). */
  const truncate = (max: number) =>
    setMedia((list) => {
      list.slice(max).forEach(releasePreview);
      return list.length > max ? list.slice(0, max) : list;
    });

  const addFiles = (files: File[]) => {
    if (files.length === 0) return;
    setReading((n) => n + 1);
    void Promise.all(files.map((f) => mediaReader.readFile(f)))
      .then((read) => setMedia((list) => [...list, ...read]))
      .finally(() => setReading((n) => n - 1));
  };

  /** Removes one file, or every file when `all` (a one-file channel). */
  const remove = (key: string, all: boolean) =>
    setMedia((list) => {
      const gone = all ? list : list.filter((m) => m.key === key);
      gone.forEach(releasePreview);
      return list.filter((m) => !gone.includes(m));
    });

  return { media, reading, truncate, addFiles, remove };
}
