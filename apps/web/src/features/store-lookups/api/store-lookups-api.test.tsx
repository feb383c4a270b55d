import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { AdministrativeArea, BusinessCategory, PostalCodeLookup } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { fail, mockApi, ok, resetState } from '@/test/render';
import { useCategories, usePostalCode, usePrefectures } from './store-lookups-api';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>
);

const shibuya: PostalCodeLookup = {
  postal_code: '150-0002',
  prefecture_code: '13',
  prefecture: '東京都',
  city_code: '13113',
  city: '渋谷区',
  town: '渋谷',
  zip_lat: 35.66,
  zip_lng: 139.7,
  coordinate_level: 'municipality',
  addresses: [],
};

beforeEach(() => resetState());

describe('usePostalCode', () => {
  it('asks once the code is whole, by its 7 digits, and answers data.data', async () => {
    const { calls } = mockApi({ 'GET /postal-code/1500002': ok({ data: shibuya }) });
    const { result, rerender } = renderHook(({ code }) => usePostalCode(code), {
      wrapper,
      initialProps: { code: '150-000' },
    });
    expect(result.current.fetchStatus).toBe('idle');
    rerender({ code: '150-0002' });
    await waitFor(() => expect(result.current.data).toEqual(shibuya));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /postal-code/1500002']);
  });

  it('an unknown code comes back as an ApiError with the server’s message', async () => {
    mockApi({
      'GET /postal-code/9999999': fail(
        404,
        {},
        '郵便番号 999-9999 に該当する住所が見つかりません。',
      ),
    });
    const { result } = renderHook(() => usePostalCode('9999999'), { wrapper });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(ApiError);
    expect((result.current.error as ApiError).status).toBe(404);
  });
});

describe('usePrefectures', () => {
  const tokyo: AdministrativeArea = { region_code: 'JP', code: '13', name: '東京都' };

  it('asks for one region when JP or VN is named', async () => {
    const { calls } = mockApi({ 'GET /entity/prefectures': ok([tokyo]) });
    const { result } = renderHook(() => usePrefectures(7, 'jp'), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual([tokyo]));
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toEqual({
      user_id: '7',
      region_code: 'JP',
    });
  });

  it('asks nothing for a region without a choice list, or without a store', () => {
    const { calls } = mockApi({});
    renderHook(() => usePrefectures(7, 'US'), { wrapper });
    renderHook(() => usePrefectures(null), { wrapper });
    expect(calls).toEqual([]);
  });
});

describe('useCategories', () => {
  it('sends the trimmed search text', async () => {
    const cafe: BusinessCategory = { name: 'categories/gcid:cafe', displayName: 'カフェ' };
    const { calls } = mockApi({ 'GET /entity/categories': ok([cafe]) });
    const { result } = renderHook(() => useCategories(7, ' カフェ '), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual([cafe]));
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toEqual({
      user_id: '7',
      search: 'カフェ',
    });
  });
});
