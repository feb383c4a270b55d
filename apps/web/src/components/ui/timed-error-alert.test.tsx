import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { TimedErrorAlert } from './timed-error-alert';

const show = (error: unknown) => (
  <MantineProvider>
    <TimedErrorAlert error={error} />
  </MantineProvider>
);

describe('TimedErrorAlert', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the server’s errors for 2 seconds, and again for the next failure', () => {
    const first = new ApiError(422, { errors: { page_id: ['ページが見つかりません。'] } });
    const { rerender } = render(show(first));
    expect(screen.getByRole('alert')).toHaveTextContent('ページが見つかりません。');
    act(() => {
      vi.advanceTimersByTime(1900);
    });
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // A re-render with the same failure does not bring it back…
    rerender(show(first));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // …a new failure does.
    rerender(show(new ApiError(503, { message: 'Googleに接続できませんでした。' })));
    expect(screen.getByRole('alert')).toHaveTextContent('Googleに接続できませんでした。');
  });

  it('shows the generic 500 message for an error that is not the API’s', () => {
    render(show(new TypeError('boom')));
    expect(screen.getByRole('alert')).toHaveTextContent('何らかのエラーが発生しました');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
