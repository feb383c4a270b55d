import type { Locator, Page } from '@playwright/test';
import { expect } from './support';

// Keyboard-only steps for the journeys (issue 7 §3.4): reach a control with Tab, walk a menu,
// check that a modal keeps focus, close it with its ×.

/** Presses Tab until `target` has focus (as a keyboard user reaches a control). */
export async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `Tab reaches ${String(target)}`).toBeFocused();
}

/** In an open menu, presses ArrowDown until the item named `name` has focus. */
export async function arrowTo(page: Page, name: string, max = 12): Promise<void> {
  const item = page.getByRole('menuitem', { name });
  await expect(item).toBeVisible();
  for (let i = 0; i < max; i++) {
    if (await item.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('ArrowDown');
  }
  await expect(item).toBeFocused();
}

const focusInside = (dialog: Locator) => dialog.evaluate((d) => d.contains(document.activeElement));

/** Focus is in the dialog, and a round of Tab then Shift+Tab never leaves it. */
export async function expectTrapped(page: Page, dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect
    .poll(() => focusInside(dialog), { message: 'focus moves into the dialog' })
    .toBe(true);
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press(key);
      expect(await focusInside(dialog), `focus stays in the dialog after ${key} ×${i + 1}`).toBe(
        true,
      );
    }
  }
}

/** Closes with the × (reached by Tab, pressed with Enter). */
export async function closeWithX(page: Page, dialog: Locator): Promise<void> {
  const x = dialog.getByRole('button', { name: '閉じる' });
  await tabTo(page, x, 30);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}
