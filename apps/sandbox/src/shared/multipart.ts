export type Part = { name: string; filename?: string; contentType?: string; data: Buffer };
export type MultipartBody = { fields: Record<string, string>; files: Record<string, Part> };

/** Splits a multipart/form-data body (the providers' upload endpoints take one). */
export function parseMultipart(body: Buffer, contentType: string): MultipartBody {
  const out: MultipartBody = { fields: {}, files: {} };
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) return out;
  const delim = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delim);
  while (pos >= 0) {
    let start = pos + delim.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing "--"
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    const headEnd = body.indexOf('\r\n\r\n', start);
    if (headEnd > 0 && headEnd < end) {
      const head = body.toString('utf8', start, headEnd);
      const data = body.subarray(headEnd + 4, end);
      const name = /name="([^"]*)"/i.exec(head)?.[1];
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
      if (name !== undefined) {
        if (filename !== undefined || (type && !/^text\/plain/i.test(type))) {
          out.files[name] = { name, filename, contentType: type, data: Buffer.from(data) };
        } else out.fields[name] = data.toString('utf8');
      }
    }
    pos = next;
  }
  return out;
}

const FILES = Symbol('files');

/** The body a handler sees: plain fields as properties (like a form), files aside. */
export function multipartBody(parsed: MultipartBody): Record<string, string> {
  return Object.defineProperty({ ...parsed.fields }, FILES, {
    value: parsed.files,
    enumerable: false,
  });
}

export function filesOf(body: unknown): Record<string, Part> {
  if (!body || typeof body !== 'object') return {};
  return ((body as Record<symbol, unknown>)[FILES] as Record<string, Part> | undefined) ?? {};
}
