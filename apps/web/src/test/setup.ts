import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import '../i18n';
import { unexpectedCalls } from './render';

// Screens are lazily loaded route chunks: on a cold run (a fresh clone, nothing transformed yet)
// the first import of one can take far longer than Testing Library's 1 s default wait (seen:
// about 5 s on a 2-core CI machine).
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no canvas: Chart.js would fail to draw. The charts of react-chartjs-2 render their
// data as text instead (labels, then one line per series), which the tests read; like the real
// canvas, the stub is an image named by its aria-label.
vi.mock('react-chartjs-2', async () => {
  const { createElement } = await import('react');
  type Props = {
    data: { labels?: unknown[]; datasets: { label?: string; data: unknown[] }[] };
    'aria-label'?: string;
  };
  const stub = (type: string) =>
    function ChartStub({ data, 'aria-label': name }: Props) {
      return createElement(
        'div',
        { 'data-chart': type, role: 'img', 'aria-label': name },
        createElement('p', null, `labels: ${(data.labels ?? []).join(' | ')}`),
        ...data.datasets.map((d, i) =>
          createElement('p', { key: i }, `${d.label ?? type}: ${d.data.join(' | ')}`),
        ),
      );
    };
  return { Bar: stub('bar'), Line: stub('line'), Doughnut: stub('doughnut') };
});

// Mantine needs these browser APIs, which jsdom lacks.
// The tests' "user" prefers reduced motion: Mantine's transitions then take no time and leave no
// timer running past a test (one firing after the test file's window is gone fails the run).
const minWidthMatches = (query: string): boolean => {
  const m = /\(min-width:\s*([\d.]+)(em|px)\)/.exec(query);
  return m !== null && Number(m[1]) * (m[2] === 'em' ? 16 : 1) <= window.innerWidth;
};
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    // A `(min-width: …)` query is answered for jsdom's window (1024 px): the tests' screen is wide.
    matches: query.includes('prefers-reduced-motion: reduce') || minWidthMatches(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
// Mantine 9's Textarea autosize listens for web fonts loading (`document.fonts`, the CSS Font
// Loading API): jsdom has no fonts, so nothing ever loads.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: Object.assign(new EventTarget(), { ready: Promise.resolve(), status: 'loaded' }),
  });
}
window.HTMLElement.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};

// CONVENTIONS: a console.error in a test fails it.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  cleanup();
  // Toasts live in a store of their own that outlives a test's render.
  notifications.clean();
  localStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  const unexpected = unexpectedCalls.splice(0);
  if (unexpected.length > 0) {
    throw new Error(`calls no mock answered: ${unexpected.join(', ')}`);
  }
  if (errors.length > 0) {
    const first = errors[0]?.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ');
    throw new Error(`console.error was called ${errors.length} time(s): ${first}`);
  }
});

// Mantine's focus returns and the like run on short timers after a modal closes: let the last
// test's run while this file's window still exists.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));
