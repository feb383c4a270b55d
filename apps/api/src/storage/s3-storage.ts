import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertMediaKey,
  byteCounter,
  MediaNotFoundError,
  newMediaKey,
  type MediaStorage,
} from './media-storage';

export type S3StorageOptions = {
  /** Absent for AWS itself; the server's URL for MinIO, R2, Wasabi, s3rver… */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Where the bucket is readable without signing (a CDN, a public bucket); null when private. */
  publicUrl: string | null;
  /** Private: every URL is presigned and expires. */
  private: boolean;
  urlTtlSeconds: number;
};

/**
 * Multipart parts of 5 MiB (S3's minimum), one in flight while the next is gathered: an upload
 * holds about 10 MiB whatever the file's size (two in flight measured 21 MiB: ADR 0021).
 */
export const S3_PART_SIZE = 5 * 1024 * 1024;
export const S3_QUEUE_SIZE = 1;

const isNotFound = (err: unknown): boolean =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

export function createS3Storage(o: S3StorageOptions): MediaStorage {
  const client = new S3Client({
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    region: o.region,
    credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
    forcePathStyle: o.forcePathStyle,
    // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's
    // default streaming checksum trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = o.bucket;

  return {
    driver: 's3',

    async put(body, options) {
      const key = newMediaKey(options);
      const counter = byteCounter();
      // A failing source destroys the counter, which fails the upload; lib-storage then aborts
      // the multipart upload (leavePartsOnError: false), so no object and no parts remain.
      pipeline(body, counter, () => {});
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counter, ContentType: options.contentType },
        partSize: S3_PART_SIZE,
        queueSize: S3_QUEUE_SIZE,
        leavePartsOnError: false,
      });
      await upload.done();
      return { key, size: counter.bytes };
    },

    async open(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: assertMediaKey(key) }));
        return res.Body as Readable;
      } catch (err) {
        if (isNotFound(err)) throw new MediaNotFoundError(key);
        throw err;
      }
    },

    async stat(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: assertMediaKey(key) }));
        return {
          size: res.ContentLength ?? 0,
          contentType: res.ContentType ?? 'application/octet-stream',
        };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: assertMediaKey(key) }));
    },

    async url(key, options) {
      assertMediaKey(key);
      if (!o.private && o.publicUrl) return `${o.publicUrl.replace(/\/+$/, '')}/${key}`;
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), {
        expiresIn: options?.expiresInSeconds ?? o.urlTtlSeconds,
      });
    },

    browserUrl(key) {
      return this.url(key);
    },

    async close() {
      client.destroy();
    },
  };
}
