import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The main screens of a facility, as the layout test visits them (and checks their accessibility). */
export const MAIN_SCREENS = [
  { name: 'home', path: '/' },
  { name: 'products', path: '/master-data/products' },
  { name: 'equipment', path: '/master-data/equipments' },
  { name: 'actives', path: '/master-data/apis' },
  { name: 'productions', path: '/master-data/productions' },
  { name: 'production-equipment-matrix', path: '/master-data/production-equipment-matrix' },
  { name: 'mac-matrix', path: '/limits/mac-matrix' },
  { name: 'limits', path: '/limits/reports' },
  { name: 'policies', path: '/policies' },
  { name: 'change-control', path: '/change-control' },
  { name: 'cleaning-assessments', path: '/cleaning-assessments' },
  { name: 'studies', path: '/studies' },
  { name: 'audit-log', path: '/audit-log' },
  { name: 'reports', path: '/reports' },
  { name: 'users', path: '/users' },
  { name: 'roles', path: '/roles' },
] as const;

/**
 * Opens a screen and waits until what it loads is shown: no spinner or skeleton left. 'load'
 * loads the client again, so nothing of the screen before stays (an open dialog, a tab chosen);
 * 'router' goes there as a menu link does, within the signed-in app: loading the whole client for
 * each screen was most of the layout walk's time (243 s against 147 s for its 59 tests).
 */
export async function openScreen(
  page: Page,
  path: string,
  how: 'load' | 'router' = 'load',
): Promise<void> {
  if (how === 'router' && (await page.getByRole('button', { name: 'Logout' }).isVisible())) {
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await expect.poll(() => new URL(page.url()).pathname).toBe(new URL(path, page.url()).pathname);
  } else {
    await page.goto(path);
  }
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  await page.waitForLoadState('networkidle');
  await expect
    .poll(
      () => page.locator('.ant-spin-spinning, .ant-skeleton-active, .loading-spinner').count(),
      {
        timeout: 30_000,
      },
    )
    .toBe(0);
}
