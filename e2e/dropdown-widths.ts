import type { Locator, Page } from 'playwright-core';
import { nextFrames } from './main-screens.ts';

/*
 * Issue 30: "a dropdown in a modal opened 90 px wide with its labels cut". One rule in
 * client/styles.css holds for every Select, TreeSelect and AutoComplete list: as wide as its
 * field, at least 200 px, and as wide as its longest label. These measure it in the browser.
 */

const MIN_WIDTH = 200;

export interface Seen {
  where: string;
  width: number;
  field: number;
  right: number;
  cut: string[];
}

/** Opens each dropdown within `scope` and measures its list against its field and the window. */
export async function measureSelects(page: Page, scope: Locator, where: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  const boxes = scope.locator('[role="combobox"]');
  for (let i = 0; i < (await boxes.count()); i += 1) {
    const box = boxes.nth(i);
    if (!(await box.isVisible()) || !(await box.isEnabled())) continue;
    await box.scrollIntoViewIfNeeded();
    await box.click({ force: true });
    await nextFrames(page);
    // A search field whose list stays closed until something is typed says so at once; a list
    // that opens may take a while to show on a busy machine: 5 s passed at a load of 40, and
    // lists went unmeasured (issue 27).
    if ((await box.getAttribute('aria-expanded')) !== 'true') continue;
    const list = await box.getAttribute('aria-controls');
    // A field that only looks like one (a search box with suggestions it has none of yet).
    if (!list) continue;
    const dropdown = page
      .locator('.ant-select-dropdown')
      .filter({ has: page.locator(`[id="${list}"]`) });
    const shown = await dropdown
      .waitFor({ state: 'visible', timeout: 30_000 })
      .then(() => true)
      .catch(() => false);
    if (!shown) continue;
    // The popup's size is set a frame after it shows: two frames, however long a frame takes.
    await nextFrames(page);
    const field = await box.evaluate(
      (el) => (el.closest('.ant-select') ?? el).getBoundingClientRect().width,
    );
    const measured = await dropdown.evaluate((el) => ({
      width: el.getBoundingClientRect().width,
      right: el.getBoundingClientRect().right - window.innerWidth,
      cut: [...el.querySelectorAll('.ant-select-item-option-content')]
        .filter((option) => option.scrollWidth > option.clientWidth + 1)
        .map((option) => option.textContent ?? ''),
    }));
    seen.push({ where: `${where}, dropdown ${i + 1}`, field, ...measured });
    await box.press('Escape');
  }
  return seen;
}

/** Too narrow for its field or for the rule, past the window's edge, or with a label cut. */
export const wrong = (seen: Seen[]): Seen[] =>
  seen.filter(
    (s) => s.width < MIN_WIDTH || s.width < s.field - 1 || s.right > 1 || s.cut.length > 0,
  );
