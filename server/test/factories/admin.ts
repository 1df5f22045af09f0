import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { testActor } from '../factories.ts';
import { ADMIN } from '../test-server.ts';
import type { BuiltSigner } from './signed-record.ts';

/** The test server's administrator (ADMIN), who signs with their password. */
export async function adminSigner(db: Db): Promise<BuiltSigner> {
  const [admin] = await db.query<{ id: number; username: string; name: string }>(
    `select id, username, first_name || ' ' || last_name as name from users where email = $1`,
    [ADMIN.email],
  );
  return { id: admin!.id, username: admin!.username, password: ADMIN.password, name: admin!.name };
}

/**
 * The administrator as the author of a factory's writes: the records read back with the same
 * author as those the administrator's session creates over HTTP.
 */
export async function adminActor(db: Db): Promise<Actor> {
  const admin = await adminSigner(db);
  return { ...testActor, userId: admin.id, userName: admin.name };
}
