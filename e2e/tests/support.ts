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
