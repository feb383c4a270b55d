/**
 * The small XML the SBPS API speaks: one root element with an `id` attribute, and children that
 * are either text leaves or groups of leaves (`pay_method_info`, `pay_option_manage`, `dtls`).
 * No namespaces, no mixed content; comments, CDATA and the XML declaration are understood.
 */
export type XmlElement = {
  name: string;
  attrs: Record<string, string>;
  /** Child elements, in document order (empty for a leaf). */
  children: XmlElement[];
  /** The text of a leaf (entities resolved); '' for a group. */
  text: string;
};

export class XmlError extends Error {}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, ent: string) => {
    if (ent[0] === '#') {
      const code =
        ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : Number(ent.slice(1));
      if (!Number.isFinite(code) || code > 0x10ffff)
        throw new XmlError(`bad character reference ${all}`);
      return String.fromCodePoint(code);
    }
    const v = ENTITIES[ent];
    if (v === undefined) throw new XmlError(`unknown entity ${all}`);
    return v;
  });
}

export const escapeXml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

const NAME = /^[A-Za-z_][\w.-]*/;

/** Parses one document; throws XmlError on anything that is not well formed. */
export function parseXml(source: string): XmlElement {
  let i = 0;
  const s = source.replace(/^\uFEFF/, '');
  const skipMisc = (): void => {
    for (;;) {
      while (i < s.length && /\s/.test(s[i] as string)) i++;
      if (s.startsWith('<?', i)) {
        const end = s.indexOf('?>', i);
        if (end < 0) throw new XmlError('unterminated declaration');
        i = end + 2;
      } else if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i);
        if (end < 0) throw new XmlError('unterminated comment');
        i = end + 3;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (s[i] !== '<') throw new XmlError(`expected an element at ${i}`);
    i++;
    const name = NAME.exec(s.slice(i))?.[0];
    if (!name) throw new XmlError(`bad element name at ${i}`);
    i += name.length;
    const attrs: Record<string, string> = {};
    for (;;) {
      while (/\s/.test(s[i] ?? '')) i++;
      if (s.startsWith('/>', i)) {
        i += 2;
        return { name, attrs, children: [], text: '' };
      }
      if (s[i] === '>') {
        i++;
        break;
      }
      const an = NAME.exec(s.slice(i))?.[0];
      if (!an) throw new XmlError(`bad attribute in <${name}>`);
      i += an.length;
      while (/\s/.test(s[i] ?? '')) i++;
      if (s[i] !== '=') throw new XmlError(`attribute ${an} without a value`);
      i++;
      while (/\s/.test(s[i] ?? '')) i++;
      const q = s[i];
      if (q !== '"' && q !== "'") throw new XmlError(`attribute ${an} not quoted`);
      const end = s.indexOf(q, i + 1);
      if (end < 0) throw new XmlError(`unterminated attribute ${an}`);
      attrs[an] = unescapeXml(s.slice(i + 1, end));
      i = end + 1;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (i >= s.length) throw new XmlError(`<${name}> is not closed`);
      if (s.startsWith('</', i)) {
        i += 2;
        const close = NAME.exec(s.slice(i))?.[0];
        if (close !== name) throw new XmlError(`</${close ?? ''}> closes <${name}>`);
        i += close.length;
        while (/\s/.test(s[i] ?? '')) i++;
        if (s[i] !== '>') throw new XmlError(`bad closing tag of <${name}>`);
        i++;
        // Whitespace between child elements is layout, not a value.
        return { name, attrs, children, text: children.length ? '' : text };
      }
      if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i);
        if (end < 0) throw new XmlError('unterminated comment');
        i = end + 3;
      } else if (s.startsWith('<![CDATA[', i)) {
        const end = s.indexOf(']]>', i);
        if (end < 0) throw new XmlError('unterminated CDATA');
        text += s.slice(i + 9, end);
        i = end + 3;
      } else if (s[i] === '<') {
        children.push(element());
      } else {
        const next = s.indexOf('<', i);
        const raw = s.slice(i, next < 0 ? s.length : next);
        text += unescapeXml(raw);
        i += raw.length;
      }
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i < s.length) throw new XmlError('content after the root element');
  return root;
}

/** The `encoding` of the XML declaration, if any. */
export function declaredEncoding(head: string): string | undefined {
  return /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1];
}

/** A value tree for writing: a string is a leaf, an array of pairs a group, in order. */
export type XmlValue = string | XmlPairs;
export type XmlPairs = readonly (readonly [string, XmlValue])[];

export function writeXml(root: string, attrs: Record<string, string>, body: XmlPairs): string {
  const attr = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  const inner = (pairs: XmlPairs): string =>
    pairs
      .map(([k, v]) =>
        typeof v === 'string' ? `<${k}>${escapeXml(v)}</${k}>` : `<${k}>${inner(v)}</${k}>`,
      )
      .join('');
  return `<?xml version="1.0" encoding="Shift_JIS"?>\n<${root}${attr}>${inner(body)}</${root}>`;
}

/** Leaves in document order with their parent group ('' at the top). */
export function leaves(el: XmlElement, parent = ''): { parent: string; el: XmlElement }[] {
  return el.children.flatMap((c) => (c.children.length ? leaves(c, c.name) : [{ parent, el: c }]));
}
