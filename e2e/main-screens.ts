import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import { canOpenScreen, isEntityShown } from '#core/facilities/facility-features.ts';
import type { Db } from '#server/db/db.ts';
import { facilityKind } from '#server/db/facility-kind.ts';
import { NAVIGATION } from '#client/app/navigation.ts';

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

/** Requests of a page still under way, and when one last started or ended. */
const traffic = new WeakMap<Page, { open: number; last: number }>();

function trackRequests(page: Page): { open: number; last: number } {
  let seen = traffic.get(page);
  if (seen) return seen;
  const state = { open: 0, last: Date.now() };
  // The live updates' event stream stays open as long as the page: it never ends, and one opened
  // by a load after the tracking began held every later wait for quiet until its time ran out.
  const counted = (request: Request) => request.resourceType() !== 'eventsource';
  const started = (request: Request) => {
    if (!counted(request)) return;
    state.open += 1;
    state.last = Date.now();
  };
  const ended = (request: Request) => {
    if (!counted(request)) return;
    state.open = Math.max(0, state.open - 1);
    state.last = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  traffic.set(page, (seen = state));
  return seen;
}

/**
 * The page's network quiet for half a second, as a load's 'networkidle' means: a move through the
 * router loads the screen's code and then its data, with no load state to wait for.
 */
async function networkQuiet(page: Page, state: { open: number; last: number }): Promise<void> {
  await expect
    .poll(() => state.open === 0 && Date.now() - state.last >= 500, { timeout: 30_000 })
    .toBe(true);
}

/** Two frames drawn from now: what the page changed before is laid out and painted. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
}

/**
 * The page has done what the last step started: its requests ended, then two frames were drawn
 * (a dialog a click opens is drawn by then, its code loaded first when it is loaded lazily).
 */
export async function settled(page: Page): Promise<void> {
  await networkQuiet(page, trackRequests(page));
  await nextFrames(page);
}

/** What a screen may show on top of itself: a dialog, a drawer, a confirmation, an open list. */
const ON_TOP =
  '.ant-modal-wrap:visible, .ant-drawer-open, .ant-popover:visible, .ant-select-dropdown:visible, .ant-dropdown:visible';

/** A light screen outside every other route's element, for 'fresh' to pass through (or, to
 * open it, '/my-approvals'), and the heading that shows it has replaced the screen before. */
const ELSEWHERE = { path: '/feedback', heading: 'Feedback' };
const OTHERWISE = { path: '/my-approvals', heading: 'My approvals' };

/** Moves the signed-in app to `to` as a menu link does, without loading the client again. */
async function pushRoute(page: Page, to: string): Promise<void> {
  await page.evaluate((path) => {
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/**
 * Goes to a screen through the router and waits until its heading shows: the screen before is
 * unmounted then. Nothing of it is checked, so its data is not waited for: a wait for the
 * network to rest took at least half a second on each of the hundreds of screens the walks
 * open afresh.
 */
async function passThrough(page: Page, via: { path: string; heading: string }): Promise<void> {
  await pushRoute(page, via.path);
  await page
    .locator('.app-content')
    .getByRole('heading', { name: via.heading, exact: true })
    .waitFor();
}

/**
 * Opens a screen and waits until what it loads is shown: no spinner or skeleton left. 'load'
 * loads the client again, so nothing of the screen before stays (an open dialog, a tab chosen);
 * 'router' goes there as a menu link does, within the signed-in app: loading the whole client for
 * each screen was most of the layout walk's time (243 s against 147 s for its 59 tests). 'fresh'
 * is the router's move with what 'load' promises: through another screen first, so that the
 * screen's element is mounted anew (a run page after another run page would keep its tab), and
 * with nothing left on top of it; a load when something stays (a confirmation opened outside the
 * screen's tree).
 */
export async function openScreen(
  page: Page,
  path: string,
  how: 'load' | 'router' | 'fresh' = 'load',
): Promise<void> {
  if (how === 'fresh') {
    const via = path === ELSEWHERE.path ? OTHERWISE : ELSEWHERE;
    if (!(await page.getByRole('button', { name: 'Logout' }).isVisible()))
      await openScreen(page, via.path, 'load');
    else if (new URL(page.url()).pathname !== via.path) await passThrough(page, via);
    await openScreen(page, path, 'router');
    if ((await page.locator(ON_TOP).count()) > 0) await openScreen(page, path, 'load');
    return;
  }
  if (how === 'router' && (await page.getByRole('button', { name: 'Logout' }).isVisible())) {
    const state = trackRequests(page);
    state.last = Date.now();
    await pushRoute(page, path);
    await expect.poll(() => new URL(page.url()).pathname).toBe(new URL(path, page.url()).pathname);
    await networkQuiet(page, state);
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

/**
 * Every screen the facility opens: the main screens, every menu entry and every master-data list
 * of its kind (a finished-product plant has no intermediates' list).
 */
export async function facilityScreens(db: Db, facilityId: number): Promise<string[]> {
  const kind = await facilityKind(db, facilityId);
  const masterData = ENTITY_DEFS.filter((def) => isEntityShown(kind, def.path)).map(
    (def) => def.screen ?? `/master-data/${def.path}`,
  );
  return [
    ...new Set([
      ...MAIN_SCREENS.map((s) => s.path),
      ...NAVIGATION.map((entry) => entry.path),
      ...masterData,
    ]),
  ].filter((path) => canOpenScreen(kind, path));
}

/**
 * The record pages of the demo story (`npm run seed:demo`, seedDemoStory): an item, a product,
 * the validated and the ongoing study, a signed run, the failure's deviation, the approved
 * change and the cleaning assessment.
 */
export async function demoRecordPages(db: Db, facilityId: number): Promise<string[]> {
  const first = async (table: string, order: 'asc' | 'desc' = 'asc'): Promise<number> => {
    const [row] = await db.query<{ id: number }>(
      `select id from ${table} where facility_id = $1 order by id ${order} limit 1`,
      [facilityId],
    );
    if (!row) throw new Error(`the demo story has no ${table}`);
    return row.id;
  };
  return [
    `/master-data/equipments/${await first('equipment')}`,
    `/master-data/products/${await first('products')}`,
    `/studies/${await first('studies')}`,
    // The ongoing verification study, which takes more runs.
    `/studies/${await first('studies', 'desc')}`,
    `/runs/${await first('study_runs')}`,
    `/deviations/${await first('deviations')}`,
    `/change-control/${await first('change_assessments')}`,
    `/cleaning-assessments/${await first('cleaning_assessments')}`,
  ];
}
