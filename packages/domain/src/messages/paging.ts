/** Japanese texts of keyset paging (`after` / `before` cursors, ADR 0098). */
export const pagingJa = {
  cursorInvalid: 'ページの位置の指定が正しくありません。一覧を1ページ目から開き直してください。',
  cursorBoth: 'after と before は同時に指定できません。',
} as const;
