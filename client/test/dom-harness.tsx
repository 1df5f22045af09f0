import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { cleanup, configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, ConfigProvider, Modal, message, notification } from 'antd';
import type { ReactElement } from 'react';
import { afterAll, afterEach, expect, vi } from 'vitest';
import { API_BASE } from '#client/api/http-client.ts';
import { createQueryClient } from '#client/app/query-client.ts';
import { storeFacility, storeLogin } from '#client/session/session-store.ts';
import { theme } from '#client/theme.ts';
import { AppError } from '#core/errors/errors.ts';
import type { TFacility, TSessionUser } from '#core/schemas/auth.schemas.ts';
import { ZDateTimeSettingsResponse } from '#core/schemas/settings.schemas.ts';

/*
 * What a component test of a form needs around the real component: a signed-in session in the
 * real session store, the providers the app gives it, and the server's side of the calls the
 * form makes. The server's side is a handler per route that answers as the server does: a body,
 * or an AppError of the catalogue (core/errors), sent with its status and body exactly as the
 * server's error handler sends it. A call no test answered, or a handler that throws anything
 * else, fails the test.
 */

// findBy… and waitFor give up after 1 s by default: on two cores shared with other test runs, a
// query's answer and the render after it took longer, while the form itself was right.
configure({ asyncUtilTimeout: 10_000 });

export const SCOPE = { planId: 1, facilityId: 2 } as const;
/** {F} of the calls: /plans/{plan}/facilities/{facility}. */
export const F = `/plans/${SCOPE.planId}/facilities/${SCOPE.facilityId}`;

export const SIGNED_IN_USER: TSessionUser = {
  id: 7,
  firstName: 'Quinn',
  lastName: 'Approver',
  username: 'quinn',
  email: 'quinn@example.com',
  planId: SCOPE.planId,
  roles: [{ name: 'QA' }],
  department: { name: 'Quality' },
  isSystemAdmin: false,
  authType: 'local',
};

const FACILITY: TFacility = {
  id: SCOPE.facilityId,
  name: 'Plant A',
  productType: 'product',
  tier: 'full',
  facilityGroup: { id: 1, name: 'Site' },
  additionalProperties: { api: [], intermediate: [], product: [], production: [] },
};

/** A call as the server received it: the path under /api/v2, without the query. */
export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = (call: SeenCall) => unknown;

const handlers = new Map<string, Handler>();
/** Every call the component made, in order. */
export const calls: SeenCall[] = [];
/** Calls no test answered, and handlers that failed: each fails the test. */
const problems: string[] = [];

/** Answers `method path` (path under /api/v2) with what `handler` returns or throws. */
export function answer(method: string, path: string, handler: Handler): void {
  handlers.set(`${method} ${path}`, handler);
}

/** The facility's clock and formats, which any screen showing a date or a number reads. */
export function answerDateTimeSettings(): void {
  answer('GET', `${F}/date-time-settings`, () =>
    ZDateTimeSettingsResponse.parse({
      dateTimeSettings: {
        timezone: 'Europe/Dublin',
        dateFormat: 'DD MMM, YYYY',
        timeFormat: 'HH:mm',
        country: null,
        significantDigits: 4,
        version: 1,
      },
    }),
  );
}

export const callsTo = (method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);

async function serve(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), 'http://carryover.test');
  const method = init.method ?? 'GET';
  const path = url.pathname.slice(API_BASE.length);
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
  const call = { method, path, query: url.searchParams, body };
  calls.push(call);
  const handler = handlers.get(`${method} ${path}`);
  if (!handler) {
    problems.push(`no answer to ${method} ${path}`);
    return json(404, new AppError('NotFoundError').toBody());
  }
  try {
    return json(200, await handler(call));
  } catch (error) {
    if (error instanceof AppError) return json(error.status, error.toBody());
    // A fixture out of the contract's shape (a zod error), as the server would answer a bug.
    problems.push(`${method} ${path}: ${String(error)}`);
    return json(500, new AppError('InternalServerError').toBody());
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/**
 * Replaces what a field holds with `text`, entered at once (pasted): a keystroke at a time costs
 * a render of the whole form per character, and these forms judge the value, not the typing.
 */
export async function fill(
  user: ReturnType<typeof userEvent.setup>,
  field: HTMLElement,
  text: string,
): Promise<void> {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

/**
 * The open dialog (drawer or modal) with `title`. Not by its accessible name: antd's ids are all
 * 'test-id' under NODE_ENV=test, so every dialog is labelled by the first title.
 */
export async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title);
  const dialog = heading.closest<HTMLElement>('[role="dialog"]');
  if (!dialog) throw new Error(`'${title}' is not the title of a dialog`);
  return dialog;
}

/** The message a form shows under a field: what the field's aria-describedby points to. */
export function messageOf(field: HTMLElement): string {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/** Signs in as the app does at the end of the login screens: login answer, then a facility. */
export function signIn(user: TSessionUser = SIGNED_IN_USER): void {
  storeLogin({ token: 'session-token', user, licenseInfo: [] });
  storeFacility(FACILITY);
}

const queryClients: QueryClient[] = [];

/** Renders `ui` inside the providers of the app shell, with a user who types and clicks. */
export function renderInApp(ui: ReactElement) {
  vi.stubGlobal('fetch', serve);
  // The app's own defaults (how long a read stays fresh), without retries.
  const queryClient = createQueryClient();
  queryClients.push(queryClient);
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  const user = userEvent.setup({ delay: null });
  const view = render(
    // Without motion, as for a user who asks for less: dialogs open and close at once.
    <ConfigProvider theme={{ ...theme, token: { ...theme.token, motion: false } }}>
      <App>
        <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
      </App>
    </ConfigProvider>,
  );
  return { ...view, user, queryClient };
}

afterEach(() => {
  cleanup();
  // antd's static messages, notifications and confirms live in React roots of their own, which
  // cleanup() does not know: a "saved" message closes on a 3 s timer, and that close committed
  // after the simulated window was gone (CI of ff6f1839: "window is not defined" from react-dom's
  // passive effects after EntityFormDrawer's file, which shows such messages).
  message.destroy();
  notification.destroy();
  Modal.destroyAll();
  // No query of the test goes on to answer, refetch or collect into a tree that is gone.
  for (const client of queryClients.splice(0)) client.clear();
  vi.unstubAllGlobals();
  const missed = problems.splice(0);
  handlers.clear();
  calls.length = 0;
  expect(missed, 'calls the fake server could not answer').toEqual([]);
});

// React's scheduler runs its work from a setImmediate, a slice of up to 5 ms at a time: work
// queued as a file's last test ends (an unmount's effects) ran after the simulated window was
// gone, an uncaught "window is not defined" that failed CI runs (once after a fixed 50 ms wait,
// at a load of 8). The file ends once the event loop has turned quickly several times in a row,
// which it does not while slices of work run (at most 5 s).
afterAll(async () => {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const until = Date.now() + 5_000;
  for (let quiet = 0; quiet < 5 && Date.now() < until;) {
    const start = performance.now();
    await turn();
    quiet = performance.now() - start < 2 ? quiet + 1 : 0;
  }
});
