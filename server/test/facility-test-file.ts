import { afterAll, beforeAll, expect } from 'vitest';
import {
  startFacilityTestServer,
  type FacilityTestServer,
  type HttpResult,
} from './test-server.ts';

/** A response body as tests read it; the assertions check its shape. */
export type TestBody = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

/** A response as tests read it. */
export type TestResponse = HttpResult<TestBody>;

export interface FacilityTestFile extends FacilityTestServer {
  /** A request as the administrator, or as the session `as`; no body when body is undefined. */
  call(method: string, path: string, body?: unknown, as?: string): Promise<TestResponse>;
}

/**
 * The test server of one test file: starts it before the file's tests and closes it after.
 * Call at the top of the file; read server, token, F and the ids inside tests and hooks only.
 */
export function useFacilityTestServer(env: Record<string, string> = {}): FacilityTestFile {
  let started: FacilityTestServer | undefined;
  const get = (): FacilityTestServer => {
    if (!started) throw new Error('the test server starts in beforeAll; use it inside tests');
    return started;
  };
  beforeAll(async () => {
    started = await startFacilityTestServer(env);
  });
  afterAll(async () => {
    await started?.server.close();
  });
  return {
    get server() {
      return get().server;
    },
    get token() {
      return get().token;
    },
    get F() {
      return get().F;
    },
    get facilityId() {
      return get().facilityId;
    },
    get planId() {
      return get().planId;
    },
    call: (method, path, body, as = get().token) =>
      get().server.request<TestBody>(method, path, {
        token: as,
        ...(body === undefined ? {} : { body }),
      }),
  };
}

/** Calls below the file's facility (`{F}`) as the administrator; `ok` fails the test unless 200. */
export function facilityCalls(t: FacilityTestFile) {
  const call = (method: string, path: string, body?: unknown) =>
    t.call(method, `${t.F}${path}`, body);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  return { call, ok };
}
