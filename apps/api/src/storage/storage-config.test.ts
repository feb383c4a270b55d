import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-config-'));
const s3 = {
  STORAGE_DRIVER: 's3',
  S3_ENDPOINT: 'http://minio.internal:9000',
  S3_BUCKET: 'tenpo-media',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_FORCE_PATH_STYLE: 'true',
  S3_PUBLIC_URL: 'https://media.tenpo.example/',
};

describe('storage configuration', () => {
  it('defaults to public local disk under DATA_DIR/uploads', () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).storage).toEqual({
      driver: 'local',
      root: path.join(fs.realpathSync(dir), 'uploads'),
      private: false,
      urlTtlSeconds: 3600,
    });
  });

  it('takes an S3-compatible bucket by URL and credentials', () => {
    expect(loadConfig({ DATA_DIR: tmp(), ...s3 }).storage).toEqual({
      driver: 's3',
      endpoint: 'http://minio.internal:9000',
      bucket: 'tenpo-media',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      publicUrl: 'https://media.tenpo.example',
      private: false,
      urlTtlSeconds: 3600,
    });
  });

  it.each([
    [{ STORAGE_DRIVER: 'gcs' }, 'STORAGE_DRIVER'],
    [{ STORAGE_PRIVATE: 'maybe' }, 'STORAGE_PRIVATE'],
    [{ STORAGE_URL_TTL_SECONDS: '700000' }, 'STORAGE_URL_TTL_SECONDS'],
    [{ ...s3, S3_BUCKET: 'ab' }, 'S3_BUCKET'],
    [{ ...s3, S3_BUCKET: 'Tenpo_Media' }, 'S3_BUCKET'],
    [{ ...s3, S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ ...s3, S3_BUCKET: undefined }, 'S3_BUCKET'],
    [{ ...s3, S3_SECRET_ACCESS_KEY: undefined }, 'S3_SECRET_ACCESS_KEY'],
    [{ ...s3, S3_PUBLIC_URL: undefined }, 'S3_PUBLIC_URL'],
  ])('stops on %o, naming %s', (env, name) => {
    const run = () => loadConfig({ DATA_DIR: tmp(), ...env });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it('needs no public URL when the bucket is private (presigned URLs)', () => {
    const c = loadConfig({
      DATA_DIR: tmp(),
      ...s3,
      S3_PUBLIC_URL: undefined,
      STORAGE_PRIVATE: 'true',
    });
    expect(c.storage).toMatchObject({ driver: 's3', private: true, publicUrl: null });
  });
});
