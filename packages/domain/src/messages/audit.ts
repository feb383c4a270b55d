/** Messages of the audit log's query (ADR 0053). */
export const auditJa = {
  dayFormat: '日付は YYYY-MM-DD で指定してください。',
  dayInvalid: '日付が正しくありません。',
  toBeforeFrom: '終了日は開始日以降にしてください。',
} as const;
