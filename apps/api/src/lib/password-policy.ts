import { dictionary } from '@zxcvbn-ts/language-common';
import { ja, PASSWORD_MIN } from '@tenpo/domain';

/**
 * Which new passwords are refused (ADR 0065; OWASP ASVS 5.0 6.2.4, 6.2.11): those of a
 * maintained list of common passwords (zxcvbn-ts's `passwords-common`, some 49,000 from
 * breach corpora), a character or a short group repeated (`aaaaaaaa`, `abcabcab`), a run of
 * consecutive characters (`abcdefgh`, `87654321`), and those that are little more than the
 * account's own e-mail address or names: with these words taken out, fewer than the minimum
 * length is left (`shop@tenpo.example`, `shop1234` for shop@…). Composition rules (a digit, a
 * capital…) are not asked for: ASVS 6.2.5 forbids them.
 */
const COMMON: ReadonlySet<string> = new Set(
  dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN),
);

/** What of the account a password should not be made of. */
export type PasswordContext = {
  email?: string | null;
  name?: string | null;
  companyName?: string | null;
  storeName?: string | null;
};

const norm = (s: string): string => s.normalize('NFKC').toLowerCase();

const isCommon = (p: string): boolean => COMMON.has(p) || COMMON.has(p.replace(/\s+/g, ''));

/** `aaaaaaaa`, `abababab`, `abcabcab`, `12341234`: a group of at most 4 repeated. */
const isRepeated = (p: string): boolean => {
  const chars = [...p];
  for (let unit = 1; unit <= 4 && unit < chars.length; unit++) {
    if (chars.every((c, i) => c === chars[i % unit])) return true;
  }
  return false;
};

/** `abcdefgh`, `23456789`, `87654321`: every character one code point after (or before) the last. */
const isRun = (p: string): boolean => {
  const cps = [...p].map((c) => c.codePointAt(0) ?? 0);
  const step = (cps[1] ?? 0) - (cps[0] ?? 0);
  return (
    (step === 1 || step === -1) && cps.every((c, i) => i === 0 || c - (cps[i - 1] ?? 0) === step)
  );
};

/** The account's words: the address, its local part and pieces, each name and its parts. */
const wordsOf = (ctx: PasswordContext): string[] => {
  const words = new Set<string>();
  const add = (w: string, min: number) => {
    const v = norm(w).trim();
    if ([...v].length >= min) words.add(v);
  };
  if (ctx.email) {
    const email = norm(ctx.email);
    add(email, 1);
    const local = email.split('@')[0] ?? '';
    add(local, 3);
    for (const piece of local.split(/[._+-]+/)) add(piece, 3);
  }
  for (const n of [ctx.name, ctx.companyName, ctx.storeName]) {
    if (!n) continue;
    add(n.replace(/[\s\u3000]+/g, ''), 2);
    for (const part of n.split(/[\s\u3000]+/)) add(part, 2);
  }
  // Longest first, so that the address goes before its local part.
  return [...words].sort((a, b) => b.length - a.length);
};

/** The remainder once the account's words are taken out. */
const withoutWords = (p: string, words: readonly string[]): string =>
  words.reduce((rest, w) => rest.split(w).join(''), p);

/**
 * The field error for a new password, or null when it may be used. Run wherever a password is
 * set: registration, reset, change, and an administrator's create or update of an account.
 */
export function passwordProblem(password: string, ctx: PasswordContext): string | null {
  const p = norm(password);
  if (isCommon(p) || isRepeated(p) || isRun(p)) return ja.passwordTooCommon;
  const rest = withoutWords(p, wordsOf(ctx));
  if ([...rest].length < PASSWORD_MIN) return ja.passwordPersonal;
  if (isCommon(rest) || isRepeated(rest) || isRun(rest)) return ja.passwordTooCommon;
  return null;
}
