/**
 * Limits of reply templates (issue 25 item 4, ADR 0091), apart from the schemas so that the text
 * catalog can state them without importing a schema module.
 */

/** A template's body is at most what Google takes as a reply: 4,096 bytes of UTF-8. */
export const REPLY_TEMPLATE_MAX_BYTES = 4096;

/** Templates one owner (a store or an agency) keeps per star band. */
export const REPLY_TEMPLATES_PER_BAND_MAX = 20;

/** The variables a template may hold, each with its Japanese alias. */
export const REPLY_TEMPLATE_VARIABLES = {
  reviewer_name: ['{reviewer_name}', '{お客様名}'], // ja-data: the alias users type
  store_name: ['{store_name}', '{店舗名}'], // ja-data: the alias users type
} as const;
