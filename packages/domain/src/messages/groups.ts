import { GROUP_STORES_MAX } from '../groups/limits';

export const groupJa = {
  labels: {
    name: 'グループ名',
    leader_id: 'グループリーダー',
    store_list: '店舗',
    agency_id: '代理店',
  },
  storeListFormat: '店舗の指定が正しくありません。店舗IDをカンマ区切りで指定してください。',
  storeListRequired: '店舗を1つ以上追加してください。',
  storeListTooLong: `1つのグループに追加できる店舗は${GROUP_STORES_MAX}件までです。`,
  storeTwice: (id: number) => `同じ店舗（ID: ${id}）が2回指定されています。`,
  leaderNotInGroup: 'グループリーダーはグループの店舗から選んでください。',
  leaderNotShop: 'グループリーダーには有料プランの店舗を選んでください。',
  /** A store that is not the group agency's (or does not exist): answered 404 (ADR 0048). */
  storeNotFound: '選択した店舗が見つかりません。',
  agencyNotFound: '代理店が見つかりません。',
  created: 'グループを作成しました',
  updated: 'グループを更新しました',
  deleted: 'グループを削除しました',
  /** Audit summaries. */
  auditCreated: (name: string) => `グループ「${name}」を作成`,
  auditUpdated: (name: string) => `グループ「${name}」を更新`,
  auditDeleted: (name: string) => `グループ「${name}」を削除`,
} as const;
