import {
  kanaInsensitive,
  normalizeForMatch,
  normalizeText,
  originalSpan,
  sentenceAround,
  type MatchText,
} from './normalize';
import {
  COMPLIANCE_RULES,
  REVIEWER_NAME_RULE,
  type ComplianceMatcher,
  type ComplianceRule,
} from './rules';
import type { ComplianceFinding, ComplianceSeverity, RuleSetId } from './schemas';

export type CheckReplyOptions = {
  /** The store's rule sets (`ruleSetsForCategory`). */
  ruleSets: readonly RuleSetId[];
  /** The reviewer's name as Google shows it; null or empty for an anonymous review. */
  reviewerName?: string | null;
};

type CompiledMatcher = {
  re: RegExp;
  inSentence?: RegExp;
  notInSentence?: RegExp;
  accept?: (match: string) => boolean;
};
type CompiledRule = { rule: ComplianceRule; order: number; matchers: CompiledMatcher[] };

const blind = (re: RegExp, flags: string) => new RegExp(kanaInsensitive(re.source), flags);

const compile = (m: ComplianceMatcher): CompiledMatcher => ({
  re: blind(m.re, 'giu'),
  inSentence: m.inSentence && blind(m.inSentence, 'iu'),
  notInSentence: m.notInSentence && blind(m.notInSentence, 'iu'),
  accept: m.accept,
});

/** Every rule compiled once: kana-blind, case-blind, global. */
const COMPILED: readonly CompiledRule[] = COMPLIANCE_RULES.map((rule, order) => ({
  rule,
  order,
  matchers: rule.matchers.map(compile),
}));

/** A match, in the original text's offsets. */
type Hit = { rule: Omit<ComplianceRule, 'matchers'>; order: number; start: number; end: number };

function hitsOf(m: MatchText, c: CompiledMatcher): [number, number][] {
  const out: [number, number][] = [];
  for (const r of m.text.matchAll(c.re)) {
    const s = r.index;
    const e = s + r[0].length;
    if (e === s) continue;
    if (c.accept && !c.accept(r[0])) continue;
    if (c.inSentence || c.notInSentence) {
      const sentence = sentenceAround(m.text, s, e);
      if (c.inSentence && !c.inSentence.test(sentence)) continue;
      if (c.notInSentence && c.notInSentence.test(sentence)) continue;
    }
    out.push(originalSpan(m, s, e));
  }
  return out;
}

/** Display names that name nobody. */
const NAMELESS =
  /^(?:google\s?(?:ユーザー|user)|a\s?google\s?user|匿名|anonymous|ゲスト|guest|名無し)$/iu;
/** Honorifics after a name: 山田様, 山田さん. */
const HONORIFIC = /\s?(?:様|さま|さん|くん|君|ちゃん|殿|氏)/u;
const LATIN_NAME = /^[a-z]/iu;
const HAN = /\p{Script=Han}/u;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
/** A name part as a pattern: kana-blind, and whole words for Latin names. */
const namePart = (s: string) => {
  const p = kanaInsensitive(escapeRe(s));
  return LATIN_NAME.test(s) ? `(?<![a-z])${p}(?![a-z])` : p;
};

/**
 * The reviewer's name in a reply: the full name anywhere (spaces optional) when it is a spaced
 * name of three characters or more, a kanji name of three or more, or a Latin word of four or
 * more; else (さくら, 山田) only before an honorific. Each part of a spaced name, and the first
 * two or more characters of an unspaced Japanese one, before an honorific (山田太郎 → 山田様).
 */
export function reviewerNamePatterns(name: string | null | undefined): RegExp[] {
  const n = normalizeText(name ?? '')
    .replace(/\p{Extended_Pictographic}|\p{So}|\u200D|\uFE0F/gu, '')
    .trim();
  if (n === '' || NAMELESS.test(n)) return [];
  const parts = n.split(/[\s・,_]+/u).filter((p) => p.length > 0);
  const compact = parts.join('');
  if (compact.length < 2 || /^[\d\p{P}\p{S}]+$/u.test(compact)) return [];
  const honor = HONORIFIC.source;
  const full = parts.map(namePart).join('\\s?');
  const anywhere =
    parts.length > 1
      ? compact.length >= 3
      : LATIN_NAME.test(compact)
        ? compact.length >= 4
        : HAN.test(compact) && compact.length >= 3;
  const sources = [anywhere ? full : `${full}${honor}`];
  if (parts.length > 1)
    for (const p of parts) if (p.length >= 2) sources.push(`${namePart(p)}${honor}`);
  if (parts.length === 1 && !LATIN_NAME.test(compact))
    for (let k = compact.length - 1; k >= 2; k--)
      sources.push(`${namePart(compact.slice(0, k))}${honor}`);
  return sources.map((s) => new RegExp(s, 'giu'));
}

const RANK: Readonly<Record<ComplianceSeverity, number>> = { block: 2, warn: 1 };

/**
 * Overlapping matches of one rule become one finding (their union); a finding inside another of
 * the same set at least as severe is dropped (one phrase, one finding per law). Sorted by place.
 */
function tidy(hits: Hit[]): Hit[] {
  const byPlace = (a: Hit, b: Hit) => a.start - b.start || b.end - a.end || a.order - b.order;
  const merged: Hit[] = [];
  for (const h of [...hits].sort(byPlace)) {
    const same = merged.find((g) => g.rule.id === h.rule.id && h.start < g.end && g.start < h.end);
    if (same) same.end = Math.max(same.end, h.end);
    else merged.push({ ...h });
  }
  const covers = (g: Hit, f: Hit) =>
    g !== f &&
    g.rule.set === f.rule.set &&
    g.start <= f.start &&
    g.end >= f.end &&
    RANK[g.rule.severity] >= RANK[f.rule.severity] &&
    (g.end - g.start > f.end - f.start || g.order < f.order);
  return merged.filter((f) => !merged.some((g) => covers(g, f))).sort(byPlace);
}

/**
 * The compliance check of a review reply (issue 25 item 5, ADR 0089): every rule of the given
 * sets over the text normalised (NFKC, variant kanji, kana either way), and the reviewer's name
 * when it is given and personal data is checked. Findings carry their place in the original
 * text (`phrase === text.slice(start, end)`), sorted by place.
 */
export function checkReply(text: string, opts: CheckReplyOptions): ComplianceFinding[] {
  const sets = new Set(opts.ruleSets);
  if (text.trim() === '' || sets.size === 0) return [];
  const m = normalizeForMatch(text);
  const hits: Hit[] = [];
  for (const c of COMPILED) {
    if (!sets.has(c.rule.set) || c.rule.yieldsTo?.some((s) => sets.has(s))) continue;
    for (const matcher of c.matchers)
      for (const [start, end] of hitsOf(m, matcher))
        hits.push({ rule: c.rule, order: c.order, start, end });
  }
  if (sets.has(REVIEWER_NAME_RULE.set))
    for (const re of reviewerNamePatterns(opts.reviewerName))
      for (const [start, end] of hitsOf(m, { re }))
        hits.push({ rule: REVIEWER_NAME_RULE, order: COMPILED.length, start, end });
  return tidy(hits).map(({ rule, start, end }) => ({
    rule_id: rule.id,
    set: rule.set,
    severity: rule.severity,
    phrase: text.slice(start, end),
    start,
    end,
    title: rule.title,
    reason: rule.reason,
    source: { ...rule.source },
  }));
}

/** Whether any finding stops the reply (it may still go with an explicit, audited override). */
export const hasBlocking = (findings: readonly Pick<ComplianceFinding, 'severity'>[]): boolean =>
  findings.some((f) => f.severity === 'block');
