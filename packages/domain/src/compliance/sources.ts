import type { ComplianceSource } from './schemas';

/**
 * The official pages the rules cite (ADR 0089; docs/compliance.md). Titles name the law or
 * guideline and the article; every URL is on the ministry's or agency's own domain, which a
 * test checks.
 */
const MHLW_MEDICAL_AD =
  'https://www.mhlw.go.jp/stf/seisakunitsuite/bunya/kenkou_iryou/iryou/kokokukisei/index.html';
const MHLW_DRUG_AD =
  'https://www.mhlw.go.jp/stf/seisakunitsuite/bunya/kenkou_iryou/iyakuhin/koukokukisei/index.html';
const CAA_RULES = 'https://www.caa.go.jp/policies/policy/representation/fair_labeling/';
const CAA_QUALITY = `${CAA_RULES}representation_regulation/misleading_representation/`;
const CAA_ADVANTAGE = `${CAA_RULES}representation_regulation/advantageous_misidentification/`;
const CAA_STEALTH = `${CAA_RULES}stealth_marketing/`;
const PPC_LAW = 'https://www.ppc.go.jp/personalinfo/legal/';
const PPC_MEDICAL = 'https://www.ppc.go.jp/personalinfo/legal/iryoukaigo_guidance/';

/* The titles below are data: the names of laws and guidelines as they are cited. */
export const COMPLIANCE_SOURCES = {
  medFalse: {
    // ja-data: a law's and a guideline's names, cited as the rule's source
    title: '医療法第6条の5第1項、医療広告ガイドライン（虚偽広告）',
    url: MHLW_MEDICAL_AD,
  },
  medComparison: {
    // ja-data: a law's and a guideline's names, cited as the rule's source
    title: '医療法第6条の5第2項第1号、医療広告ガイドライン（比較優良広告）',
    url: MHLW_MEDICAL_AD,
  },
  medExaggeration: {
    // ja-data: a law's and a guideline's names, cited as the rule's source
    title: '医療法第6条の5第2項第1号・第2号、医療広告ガイドライン（比較優良広告・誇大広告）',
    url: MHLW_MEDICAL_AD,
  },
  medTestimonial: {
    // ja-data: a law's and a guideline's names, cited as the rule's source
    title: '医療法施行規則第1条の9第1号、医療広告ガイドライン（体験談の広告）',
    url: MHLW_MEDICAL_AD,
  },
  medBeforeAfter: {
    // ja-data: a law's and a guideline's names, cited as the rule's source
    title: '医療法施行規則第1条の9第2号、医療広告ガイドライン（治療等の前後の写真等）',
    url: MHLW_MEDICAL_AD,
  },
  medDignity: {
    // ja-data: a guideline's name, cited as the rule's source
    title: '医療広告ガイドライン（品位を損ねる内容の広告：費用を強調した広告）',
    url: MHLW_MEDICAL_AD,
  },
  pmdClaims: {
    // ja-data: a law's and a standard's names, cited as the rule's source
    title: '医薬品医療機器等法（薬機法）第66条・第68条、医薬品等適正広告基準',
    url: MHLW_DRUG_AD,
  },
  premQuality: {
    // ja-data: a law's name, cited as the rule's source
    title: '景品表示法第5条第1号（優良誤認表示）',
    url: CAA_QUALITY,
  },
  premAdvantage: {
    // ja-data: a law's name, cited as the rule's source
    title: '景品表示法第5条第2号（有利誤認表示）',
    url: CAA_ADVANTAGE,
  },
  premStealth: {
    // ja-data: a law's and a notice's names, cited as the rule's source
    title: '景品表示法第5条第3号、令和5年内閣府告示第19号（ステルスマーケティング規制）',
    url: CAA_STEALTH,
  },
  privacy: {
    // ja-data: a law's name, cited as the rule's source
    title: '個人情報保護法第27条（第三者提供の制限）、個人情報保護委員会ガイドライン',
    url: PPC_LAW,
  },
  privacyHealth: {
    // ja-data: a law's and a guidance's names, cited as the rule's source
    title: '個人情報保護法第2条第3項（要配慮個人情報）、医療・介護関係事業者ガイダンス',
    url: PPC_MEDICAL,
  },
} as const satisfies Record<string, ComplianceSource>;

/** The official domains a source may link to (a test holds every rule to them). */
export const COMPLIANCE_SOURCE_HOSTS = [
  'www.mhlw.go.jp',
  'www.caa.go.jp',
  'www.ppc.go.jp',
  'laws.e-gov.go.jp',
] as const;
