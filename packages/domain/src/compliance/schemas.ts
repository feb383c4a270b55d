import { z } from 'zod';

/**
 * The rule sets of the reply check (issue 25 item 5, ADR 0089): 医療広告ガイドライン (medical
 * advertising), 薬機法 (drugs and cosmetics claims), 景品表示法 (misleading claims and prices,
 * stealth marketing included) and personal data. A store's Google category picks which apply
 * (`ruleSetsForCategory`).
 */
export const RULE_SET_IDS = ['medical_ad', 'pmd_act', 'premiums_act', 'personal_data'] as const;
export type RuleSetId = (typeof RULE_SET_IDS)[number];

/** `block` stops the reply unless it is sent with an explicit override; `warn` only tells. */
export const COMPLIANCE_SEVERITIES = ['block', 'warn'] as const;
export type ComplianceSeverity = (typeof COMPLIANCE_SEVERITIES)[number];

/** Where a rule comes from: the law or guideline with its article, and the official page. */
export const complianceSourceSchema = z.object({ title: z.string(), url: z.string() });
export type ComplianceSource = z.infer<typeof complianceSourceSchema>;

/**
 * One finding of `checkReply`, as the API answers it (`POST /reviews/check`) and the audit log
 * keeps it: the rule that fired, the phrase at `start`–`end` (UTF-16 offsets, end exclusive) of
 * the text as typed, and the rule's title, reason and source.
 */
export const complianceFindingSchema = z.object({
  rule_id: z.string(),
  set: z.enum(RULE_SET_IDS),
  severity: z.enum(COMPLIANCE_SEVERITIES),
  phrase: z.string(),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  title: z.string(),
  reason: z.string(),
  source: complianceSourceSchema,
});
export type ComplianceFinding = z.infer<typeof complianceFindingSchema>;

/** The sets' names as the screen shows them. */
export const COMPLIANCE_SET_LABELS: Readonly<Record<RuleSetId, string>> = {
  medical_ad: '医療広告ガイドライン', // ja-data: the guideline's name, shown as the set's label
  pmd_act: '薬機法', // ja-data: the law's short name, shown as the set's label
  premiums_act: '景品表示法', // ja-data: the law's short name, shown as the set's label
  personal_data: '個人情報', // ja-data: the set's label
};
