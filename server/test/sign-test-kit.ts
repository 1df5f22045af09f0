import type { Db, Queryable, SqlValue } from '#server/db/db.ts';
import { permissionsWith, buildUser } from '#server/test/factories.ts';
import { ADMIN, startFacilityTestServer, type TestServer } from '#server/test/test-server.ts';

/*
 * Shared by the signature tests: a test server, users who may edit SOPs and/or sign, and calls
 * that create, edit and sign SOP records over HTTP.
 */

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

export interface Person {
  id: number;
  token: string;
  password: string;
  name: string;
}

export interface SignKit {
  server: TestServer;
  F: string;
  facilityId: number;
  planId: number;
  admin: Person;
  call: (
    method: string,
    path: string,
    body?: unknown,
    as?: Person,
  ) => Promise<{ status: number; body: Body }>;
  person: (rights: { edit?: boolean; sign?: boolean; firstName?: string }) => Promise<Person>;
  createSop: (as?: Person, number?: string) => Promise<Body>;
  editSop: (id: number, as?: Person) => Promise<{ status: number; body: Body }>;
  signSop: (
    id: number,
    action: string,
    as: Person,
    extra?: Record<string, unknown>,
  ) => Promise<{ status: number; body: Body }>;
  /** The latest audit row of a domain (and action). */
  lastAudit: (domain: string, action?: string) => Promise<Body | undefined>;
  close: () => Promise<void>;
}

let sopNumber = 0;

/** `env`: configuration of the test server (a test's shorter webhook retries). */
export async function startSignKit(env: Record<string, string> = {}): Promise<SignKit> {
  const { server, token, F } = await startFacilityTestServer(env);
  const [f] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  const [adminRow] = await server.db.query<{ id: number; name: string }>(
    `select id, first_name || ' ' || last_name as name from users where email = $1`,
    [ADMIN.email],
  );
  const admin: Person = { id: adminRow!.id, token, password: ADMIN.password, name: adminRow!.name };
  const call = (method: string, path: string, body?: unknown, as: Person = admin) =>
    server.request<Body>(method, path, {
      token: as.token,
      ...(body === undefined ? {} : { body }),
    });

  const person: SignKit['person'] = async ({ edit = false, sign = false, firstName }) => {
    const rights: Record<string, string[]> = {};
    if (edit) rights.CleaningProcedure = ['Get', 'Add', 'Modify'];
    if (sign) rights.ApprovalPolicy = ['Get', 'Sign'];
    const user = await buildUser(server.db, {
      facilityIds: [f!.id],
      permissions: permissionsWith(rights),
      ...(firstName ? { firstName } : {}),
    });
    const [row] = await server.db.query<{ name: string }>(
      `select first_name || ' ' || last_name as name from users where id = $1`,
      [user.id],
    );
    return {
      id: user.id,
      token: await server.login(user.username, user.password),
      password: user.password,
      name: row!.name,
    };
  };

  const createSop = async (as: Person = admin, number?: string) => {
    sopNumber += 1;
    const res = await call(
      'POST',
      `${F}/sop`,
      { sopNumber: number ?? `SOP-${process.pid}-${sopNumber}`, name: `Cleaning ${sopNumber}` },
      as,
    );
    if (res.status !== 200)
      throw new Error(`create SOP: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.result as Body;
  };

  const editSop = async (id: number, as: Person = admin) => {
    const current = await call('GET', `${F}/sop/${id}`, undefined, as);
    sopNumber += 1;
    return call(
      'POST',
      `${F}/sop/${id}`,
      { revision: `r${sopNumber}`, reason: 'Revised', version: current.body.version },
      as,
    );
  };

  const signSop = (id: number, action: string, as: Person, extra: Record<string, unknown> = {}) =>
    call(
      'POST',
      `${F}/signatures`,
      {
        documentType: 'SOP',
        documentId: id,
        action,
        password: as.password,
        ...(action === 'Reject' ? { reason: 'Needs changes' } : {}),
        ...extra,
      },
      as,
    );

  return {
    server,
    F,
    facilityId: f!.id,
    planId: f!.plan_id,
    admin,
    call,
    person,
    createSop,
    editSop,
    signSop,
    lastAudit: async (domain, action) => {
      const [row] = await server.db.query<Body>(
        `select action, reason, user_id, new_values from audit_log
          where domain = $1 and ($2::text is null or action = $2) order by id desc limit 1`,
        [domain, action ?? null],
      );
      return row;
    },
    close: () => server.close(),
  };
}

/** A kit and its usual cast: one who edits SOPs and two who sign. */
export async function startSignTeam() {
  const kit = await startSignKit();
  return {
    kit,
    editor: await kit.person({ edit: true }),
    signer: await kit.person({ sign: true, firstName: 'Grace' }),
    signer2: await kit.person({ sign: true }),
  };
}

/** An SOP its editor submitted and a signer approved: two valid signatures. */
export async function approvedSop(kit: SignKit) {
  const editor = await kit.person({ edit: true });
  const signer = await kit.person({ sign: true });
  const sopId = (await kit.createSop(editor)).id as number;
  for (const [action, as] of [
    ['Submit', editor],
    ['Approve', signer],
  ] as const) {
    const res = await kit.signSop(sopId, action, as);
    if (res.status !== 200) throw new Error(`${action}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { editor, signer, sopId };
}

/** The SQLSTATE a statement is refused with, or 'accepted'. */
export async function sqlState(q: Queryable, sql: string): Promise<string> {
  try {
    await q.query(sql);
  } catch (error) {
    return (error as { code?: string }).code ?? 'none';
  }
  return 'accepted';
}

/**
 * A change of the stored versions as the schema's owner, who may switch off the trigger that
 * keeps a signed version as it was signed (ALTER TABLE): what someone with the owner's password
 * could do behind the app, which the records' integrity check must then show.
 */
export async function pastTheVersionLock(
  owner: Db,
  sql: string,
  params: SqlValue[] = [],
): Promise<void> {
  await owner.transaction(async (tx) => {
    await tx.query('alter table controlled_versions disable trigger controlled_versions_locked');
    await tx.query(sql, params);
    // The kept version (a deferred trigger) is written before the table is altered again.
    await tx.query('set constraints all immediate');
    await tx.query('alter table controlled_versions enable trigger controlled_versions_locked');
  });
}
