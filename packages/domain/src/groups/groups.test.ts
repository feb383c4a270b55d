import { describe, expect, it } from 'vitest';
import {
  groupPayloadSchema,
  leaderInGroup,
  mayLead,
  parseStoreList,
  withoutStore,
} from './schemas';

describe('parseStoreList', () => {
  it.each([
    { raw: '', out: { ok: true, ids: [] } },
    { raw: '  ', out: { ok: true, ids: [] } },
    { raw: '3', out: { ok: true, ids: [3] } },
    { raw: '8,3,5', out: { ok: true, ids: [8, 3, 5] } },
    { raw: ' 8 , 3 ', out: { ok: true, ids: [8, 3] } },
    { raw: '3,3', out: { ok: false, reason: 'duplicate', id: 3 } },
    { raw: '1,2,1', out: { ok: false, reason: 'duplicate', id: 1 } },
    { raw: '1,,2', out: { ok: false, reason: 'format' } },
    { raw: '1,a', out: { ok: false, reason: 'format' } },
    { raw: '0', out: { ok: false, reason: 'format' } },
    { raw: '-1', out: { ok: false, reason: 'format' } },
    { raw: '1.5', out: { ok: false, reason: 'format' } },
    { raw: '01', out: { ok: false, reason: 'format' } },
    { raw: '1;2', out: { ok: false, reason: 'format' } },
  ])('"$raw"', ({ raw, out }) => {
    expect(parseStoreList(raw)).toEqual(out);
  });
});

describe('leaderInGroup', () => {
  it.each([
    { leader: null, stores: [], ok: true },
    { leader: null, stores: [1, 2], ok: true },
    { leader: 2, stores: [1, 2], ok: true },
    { leader: 3, stores: [1, 2], ok: false },
    { leader: 1, stores: [], ok: false },
  ])('leader $leader in $stores: $ok', ({ leader, stores, ok }) => {
    expect(leaderInGroup(leader, stores)).toBe(ok);
  });
});

describe('mayLead', () => {
  it.each([
    { role: 0, ok: false },
    { role: 1, ok: true },
    { role: 11, ok: false },
    { role: 99, ok: false },
  ])('role $role: $ok', ({ role, ok }) => expect(mayLead({ role })).toBe(ok));
});

describe('withoutStore', () => {
  const s = [{ id: 1 }, { id: 2 }, { id: 3 }];
  it.each([
    { removed: 2, leader: 2, stores: [1, 3], after: null },
    { removed: 2, leader: 1, stores: [1, 3], after: 1 },
    { removed: 9, leader: null, stores: [1, 2, 3], after: null },
  ])('remove $removed with leader $leader', ({ removed, leader, stores, after }) => {
    const r = withoutStore(s, leader, removed);
    expect(r.stores.map((x) => x.id)).toEqual(stores);
    expect(r.leaderId).toBe(after);
  });
});

describe('groupPayloadSchema', () => {
  const issues = (v: unknown) => {
    const r = groupPayloadSchema.safeParse(v);
    return r.success ? null : r.error.issues.map((i) => [i.path.join('.'), i.message]);
  };
  it.each([
    {
      what: 'a valid payload',
      v: { name: ' 東京 ', leader_id: 2, store_list: '1,2' },
      out: { name: '東京', leader_id: 2, store_ids: [1, 2], agency_id: null },
    },
    {
      what: 'no leader, agency id as text, one store as a number',
      v: { name: '東京', leader_id: '', store_list: 5, agency_id: '6' },
      out: { name: '東京', leader_id: null, store_ids: [5], agency_id: 6 },
    },
  ])('$what', ({ v, out }) => {
    expect(groupPayloadSchema.parse(v)).toEqual(out);
  });
  it.each([
    {
      what: 'empty name',
      v: { name: ' ', store_list: '1' },
      path: 'name',
      msg: 'グループ名 を入力してください。',
    },
    {
      what: 'no name',
      v: { store_list: '1' },
      path: 'name',
      msg: 'グループ名 を入力してください。',
    },
    {
      what: 'a store twice',
      v: { name: 'a', store_list: '1,2,1' },
      path: 'store_list',
      msg: '同じ店舗（ID: 1）が2回指定されています。',
    },
    {
      what: 'no store',
      v: { name: 'a', store_list: '' },
      path: 'store_list',
      msg: '店舗を1つ以上追加してください。',
    },
    {
      what: 'a bad list',
      v: { name: 'a', store_list: '1,x' },
      path: 'store_list',
      msg: '店舗の指定が正しくありません。店舗IDをカンマ区切りで指定してください。',
    },
    {
      what: 'a leader outside',
      v: { name: 'a', leader_id: 3, store_list: '1,2' },
      path: 'leader_id',
      msg: 'グループリーダーはグループの店舗から選んでください。',
    },
  ])('refuses $what', ({ v, path, msg }) => {
    expect(issues(v)).toContainEqual([path, msg]);
  });
});
