import { afterAll, beforeAll, expect } from 'vitest';
import { buildUser, permissionsWith } from './factories.ts';
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

/** The session of a new user granted only `rights` (resource → actions) in the given facilities. */
export async function tokenWith(
  t: FacilityTestFile,
  rights: Record<string, string[]>,
  facilityIds: number[] = [t.facilityId],
): Promise<string> {
  const user = await buildUser(t.server.db, {
    facilityIds,
    permissions: permissionsWith(rights),
  });
  return t.server.login(user.username, user.password);
}

/** The audit rows of one record, oldest first: what each change said. */
export function auditRowsOf(t: FacilityTestFile, domain: string, id: number) {
  return t.server.db.query<TestBody>(
    `select action, reason, old_values, new_values from audit_log
      where domain = $1 and entity_id = $2 order by id`,
    [domain, String(id)],
  );
}
