import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { IMAGE_SIZE_LIMIT_KB, ja } from '@tenpo/domain';
import { validationError } from './errors';
import { newToken } from './tokens';

export type UploadedFile = { field: string; filename: string; mimetype: string; data: Buffer };

/** Every upload is capped at 20 MB (DESIGN §10); narrower limits apply beneath it. */
export const UPLOAD_CAP_BYTES = 20 * 1024 * 1024;

/** Reads a multipart body: text fields as strings, and the named file fields into memory. */
export async function readMultipart(
  request: FastifyRequest,
  fileFields: readonly string[],
): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile> }> {
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  if (!request.isMultipart()) {
    // A JSON body is accepted too, for clients that send no file.
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(body))
      if (typeof v === 'string' || typeof v === 'number') fields[k] = String(v);
    return { fields, files };
  }
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (fileFields.includes(part.fieldname) && part.filename) {
        files[part.fieldname] = {
          field: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          data: await part.toBuffer(),
        };
      } else {
        part.file.resume();
      }
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, files };
}

const IMAGE_KINDS: { ext: string; test: (b: Buffer) => boolean }[] = [
  {
    ext: 'png',
    test: (b) =>
      b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    ext: 'webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/**
 * Checks that a file is an image (by its bytes, not its name) within 3072 KB, and returns
 * its extension; otherwise a 422 on the given field with the spec's rule.
 */
export const checkImage = (
  file: UploadedFile,
  field: string,
  limitKb = IMAGE_SIZE_LIMIT_KB,
): string => {
  const kind = IMAGE_KINDS.find((k) => k.test(file.data));
  if (!kind) throw validationError({ [field]: [ja.imageOnly] });
  if (file.data.length > limitKb * 1024)
    throw validationError({ [field]: [ja.imageTooLarge(limitKb)] });
  return kind.ext;
};

/** Stores a file under DATA_DIR/uploads/<folder>/ and returns its public path. */
export async function saveUpload(
  dataDir: string,
  folder: string,
  ext: string,
  data: Buffer,
): Promise<string> {
  const dir = path.join(dataDir, 'uploads', folder);
  await fs.mkdir(dir, { recursive: true });
  const name = `${newToken().slice(0, 24)}.${ext}`;
  const tmp = path.join(dir, `.${name}.tmp`);
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, path.join(dir, name));
  return `/uploads/${folder}/${name}`;
}
