import { buildUser, permissionsWith } from './factories.ts';
import type { FacilityTestFile } from './facility-test-file.ts';

/** A signed-in user of the test facility: their session and the password they sign with. */
export interface Person {
  token: string;
  password: string;
}

/** A user of the test facility holding one role with just these rights, signed in. */
export async function personWith(
  t: FacilityTestFile,
  roleName: string,
  rights: Record<string, string[]>,
): Promise<Person> {
  const user = await buildUser(t.server.db, {
    facilityIds: [t.facilityId],
    roleName,
    permissions: permissionsWith(rights),
  });
  return { token: await t.server.login(user.username, user.password), password: user.password };
}
