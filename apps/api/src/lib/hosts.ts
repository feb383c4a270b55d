/**
 * The hosts Tenpo answers on (ADR 0015): PUBLIC_URL's host, and each agency's white-label
 * host `<prefix>.<PUBLIC_URL's host name>` on the same scheme and port. When PUBLIC_URL is a
 * loopback name, the other loopback names count as the same host: `localhost`, `127.0.0.1`
 * and `[::1]` reach the same server from the browser, and none of them can be an attacker's.
 */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'] as const;

const LABEL = /^[a-z0-9-]{1,63}$/;

const isIp = (hostname: string): boolean => /^[0-9.]+$/.test(hostname) || hostname.startsWith('[');

/** The host names PUBLIC_URL stands for (several when it is a loopback name). */
const baseNames = (publicHost: string): readonly string[] =>
  (LOOPBACK as readonly string[]).includes(publicHost) ? LOOPBACK : [publicHost];

/**
 * The origin a browser request came from when it is one of ours, built from PUBLIC_URL's
 * scheme and the checked host, never copied from the header. `isAgencyPrefix` says whether a
 * first label names an active agency. Null for PUBLIC_URL's own origin (the OAuth return is
 * served there, so a relative path already lands on it) and for any host we do not know.
 */
export async function knownOriginOf(
  publicUrl: string,
  requestHost: string | undefined,
  isAgencyPrefix: (prefix: string) => Promise<boolean>,
): Promise<string | null> {
  if (!requestHost) return null;
  const pub = new URL(publicUrl);
  let u: URL;
  try {
    u = new URL(`${pub.protocol}//${requestHost}`);
  } catch {
    return null;
  }
  // A Host header carries a host and a port, nothing else.
  if (u.username || u.password || u.pathname !== '/' || u.search || u.hash) return null;
  if (u.port !== pub.port) return null;
  const origin = `${pub.protocol}//${u.host}`;
  if (origin === pub.origin) return null;
  for (const base of baseNames(pub.hostname)) {
    if (u.hostname === base) return origin;
    if (isIp(base) || !u.hostname.endsWith(`.${base}`)) continue;
    const label = u.hostname.slice(0, -(base.length + 1));
    if (LABEL.test(label) && (await isAgencyPrefix(label))) return origin;
  }
  return null;
}

/**
 * The origin the links of a mail point at: the host the request that causes the mail came on
 * when it is one of ours (an agency's white-label host), else PUBLIC_URL's. A user who asked on
 * `<prefix>.<host>` is sent back there, under the agency's name and logo.
 */
export const linkOriginOf =
  (publicUrl: string, isAgencyPrefix: (prefix: string) => Promise<boolean>) =>
  async (requestHost: string | undefined): Promise<string> =>
    (await knownOriginOf(publicUrl, requestHost, isAgencyPrefix)) ?? publicUrl;

export type LinkOrigin = ReturnType<typeof linkOriginOf>;
