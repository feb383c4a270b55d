import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'tenpo-demo-1';

/**
 * Every journey fails on a page error or a console.error (CONVENTIONS). The browser's own
 * "Failed to load resource" lines for 4xx answers are not the app's errors: the journeys that
 * provoke them check the outcome themselves.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      trackRequests(page);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) {
          errors.push(`console.error: ${m.text()}`);
        }
      });
      await use(errors);
      expect(errors, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export const emailBox = (page: Page) => page.getByRole('textbox', { name: 'メールアドレス' });
export const passwordBox = (page: Page) =>
  page.getByRole('textbox', { name: 'パスワード', exact: true });

export async function login(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await emailBox(page).fill(email);
  await passwordBox(page).fill(password);
  await page.getByRole('button', { name: 'ログイン' }).click();
}

/** Requests each page has in flight, and when the last one ended (see gotoSettled). */
const inFlight = new WeakMap<Page, { n: number; endedAt: number }>();
export function trackRequests(page: Page): void {
  const state = { n: 0, endedAt: Date.now() };
  inFlight.set(page, state);
  page.on('request', () => {
    state.n += 1;
  });
  const ended = () => {
    state.n = Math.max(0, state.n - 1);
    state.endedAt = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/** Waits until the page has had no request in flight for `quietMs`. */
export async function settled(page: Page, quietMs = 500): Promise<void> {
  const state = inFlight.get(page);
  if (!state) return page.waitForLoadState('networkidle');
  await expect
    .poll(() => state.n === 0 && Date.now() - state.endedAt >= quietMs, {
      timeout: 15_000,
      intervals: [100],
      message: 'the page’s calls answered',
    })
    .toBe(true);
}

/**
 * Moves to `path` once the page's calls have answered: the app rotates its token on every route
 * change, and a full-page move in the middle of a rotation can cost the session (ADR 0012).
 */
export async function gotoSettled(page: Page, path: string): Promise<void> {
  await settled(page);
  await page.goto(path);
}

/**
 * Picks `option` of the Mantine select or autocomplete named `label` (since Mantine 9 a select
 * is a combobox; the hours' time field, an autocomplete, stays a textbox). The field is brought
 * to the middle of the viewport first: near the viewport's edge its dropdown flips, or hides with
 * its field, while Playwright scrolls to the option, and on a busy machine the click then finds
 * no option (a 390 px journey failed so in CI).
 */
export async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  const field = page
    .getByRole('combobox', { name: label, exact: true })
    .or(page.getByRole('textbox', { name: label, exact: true }));
  await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Reloads the page once its calls have answered (see gotoSettled). */
export async function reloadSettled(page: Page): Promise<void> {
  await settled(page);
  await page.reload();
}

type Mail = { id: string; to: string; subject: string; text: string; received_at: string };

/** Waits for the newest mail to `to` that holds a link to `path`, and returns that link. */
export async function linkFromMail(
  request: APIRequestContext,
  to: string,
  path: string,
): Promise<string> {
  const re = new RegExp(`https?://[^\\s"'<>]*${path.replace('/', '\\/')}\\?[^\\s"'<>]+`);
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const r = await request.get(`/sandbox/mail?to=${encodeURIComponent(to)}`, {
          headers: { Accept: 'application/json' },
        });
        const mails = ((await r.json()) as { data: Mail[] }).data;
        for (const m of mails) {
          const found = m.text.match(re);
          if (found) {
            link = found[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000, message: `a mail to ${to} with a link to ${path}` },
    )
    .toBe(true);
  if (!link) throw new Error('no link');
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/**
 * Runs `work` with a manager session of the test's own (not the page's, whose token rotates on
 * every route change), through the API; used to clear what an earlier run on the same data
 * folder left.
 */
export async function asManager(
  page: Page,
  request: APIRequestContext,
  work: (headers: Record<string, string>) => Promise<void>,
): Promise<void> {
  await page.goto('/login');
  const apiKey = (await page.locator('meta[name="tenpo-api-key"]').getAttribute('content')) ?? '';
  const headers = { 'X-Api-Key': apiKey, Accept: 'application/json' };
  const loggedIn = await request.post('/api/login', {
    headers,
    data: { email: 'manager@tenpo.example', password: DEMO_PASSWORD },
  });
  expect(loggedIn.status()).toBe(200);
  const token = ((await loggedIn.json()) as { data: { token: string } }).data.token;
  const auth = { ...headers, Authorization: `Bearer ${token}` };
  await work(auth);
  await request.get('/api/logout', { headers: auth });
}

/** Deletes, as the manager, every group whose name contains `search` (an earlier run's). */
export async function removeGroupsNamed(
  page: Page,
  request: APIRequestContext,
  search: string,
): Promise<void> {
  await asManager(page, request, async (auth) => {
    const listed = await request.get(
      `/api/admin/groups?per_page=100&search=${encodeURIComponent(search)}`,
      { headers: auth },
    );
    expect(listed.status()).toBe(200);
    for (const g of ((await listed.json()) as { data: { data: { id: number }[] } }).data.data) {
      const gone = await request.delete(`/api/admin/groups/${g.id}`, { headers: auth });
      expect(gone.status()).toBe(200);
    }
  });
}
