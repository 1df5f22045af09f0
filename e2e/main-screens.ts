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

/** Opens a screen and waits until what it loads is shown: no spinner or skeleton left. */
export async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
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
