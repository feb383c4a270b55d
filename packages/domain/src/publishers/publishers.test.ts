import { describe, expect, it } from 'vitest';
import { ROLE } from '../roles/roles';
import {
  mayUsePublisher,
  PUBLISHERS,
  PUBLISHER_STATUS,
  publisherAction,
  publisherStatusView,
  type PublisherKey,
} from './publishers';
import {
  chooseLocationRequest,
  publisherConnectQuery,
  publisherDisconnectRequest,
} from './schemas';

describe('publishers', () => {
  it('are the four channels of spec 1 §3, ids 1–4, X labelled X', () => {
    expect(PUBLISHERS.map((p) => [p.id, p.key])).toEqual([
      [1, 'google_my_business'],
      [2, 'facebook'],
      [3, 'instagram'],
      [4, 'twitter'],
    ]);
    expect(PUBLISHERS[3]?.label).toBe('X');
  });

  it.each<[number, PublisherKey, boolean]>([
    [ROLE.freeTrial, 'google_my_business', true],
    [ROLE.freeTrial, 'facebook', false],
    [ROLE.freeTrial, 'instagram', false],
    [ROLE.freeTrial, 'twitter', false],
    [ROLE.shop, 'facebook', true],
    [ROLE.shop, 'twitter', true],
  ])('role %i may use %s: %s', (role, key, expected) => {
    expect(mayUsePublisher(role, key)).toBe(expected);
  });

  it.each<[number, PublisherKey, number, string]>([
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.disconnect, 'connect'],
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.error, 'connect'],
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.connected, 'disconnect'],
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.sync, 'disconnect'],
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.submitted, 'disconnect'],
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.requesting, 'disconnect'],
    [ROLE.freeTrial, 'facebook', PUBLISHER_STATUS.disconnect, 'disable'],
    [ROLE.freeTrial, 'google_my_business', PUBLISHER_STATUS.disconnect, 'connect'],
  ])('role %i, %s, status %i offers %s', (role, key, status, action) => {
    expect(publisherAction(role, key, status)).toBe(action);
  });
});

describe('publisher requests', () => {
  it.each([
    [{ publisher_key: 'facebook', user_id: '3' }, true],
    [{ publisher_key: 'myspace', user_id: '3' }, false],
    [{ publisher_key: 'facebook' }, false],
    [{ publisher_key: 'facebook', user_id: 'x' }, false],
  ])('connect query %o valid: %s', (q, valid) => {
    expect(publisherConnectQuery.safeParse(q).success).toBe(valid);
  });

  it('reads disconnect ids as the browser sends them', () => {
    expect(
      publisherDisconnectRequest.parse({ publisher_id: '2', entity_id: 104, user_id: 3 }),
    ).toEqual({ publisher_id: 2, entity_id: '104', user_id: 3 });
    expect(publisherDisconnectRequest.safeParse({ publisher_id: 9, user_id: 3 }).success).toBe(
      false,
    );
  });

  it('says in Japanese which field is missing', () => {
    const r = chooseLocationRequest.safeParse({ user_id: 3 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('ビジネス拠点 を入力してください。');
  });

  it.each<[number, PublisherKey, number, string]>([
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.disconnect, 'disconnect'],
    [ROLE.freeTrial, 'facebook', PUBLISHER_STATUS.disconnect, 'disable'],
    [ROLE.freeTrial, 'twitter', PUBLISHER_STATUS.disconnect, 'disable'],
    [ROLE.freeTrial, 'google_my_business', PUBLISHER_STATUS.disconnect, 'disconnect'],
    [ROLE.shop, 'google_my_business', PUBLISHER_STATUS.connected, 'connected'],
    [ROLE.shop, 'google_my_business', PUBLISHER_STATUS.sync, 'success'],
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.submitted, 'refresh'],
    [ROLE.shop, 'facebook', PUBLISHER_STATUS.requesting, 'refresh'],
    [ROLE.shop, 'twitter', PUBLISHER_STATUS.error, 'error'],
    [ROLE.shop, 'twitter', 42, 'disconnect'],
  ])('role %i, %s, status %i is shown as %s', (role, key, status, view) => {
    expect(publisherStatusView(role, key, status)).toBe(view);
  });
});
