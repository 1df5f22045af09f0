import { describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '../test/facility-test-file.ts';

const t = useFacilityTestServer();

interface VersionedEdit {
  name: string;
  method: 'POST' | 'PUT';
  path: () => string | Promise<string>;
  /** A change that sets the document's marker to `n`. */
  change: (n: number) => Body | Promise<Body>;
  /** The document now: its version and its marker. */
  read: () => Promise<{ version: number; marker: unknown }>;
}

const get = async (path: string) => (await t.call('GET', path)).body;
const equipmentIds: number[] = [];
async function equipment(): Promise<number[]> {
  if (equipmentIds.length > 0) return equipmentIds;
  for (const name of ['Lost update 1', 'Lost update 2']) {
    const res = await t.call('POST', `${t.F}/equipments`, {
      name,
      externalId: `EQ-${name}`,
      surfaceArea: { value: 2, unit: 'sqm' },
      material: 'Stainless steel 316L',
    });
    equipmentIds.push(res.body.result.id);
  }
  return equipmentIds;
}

// The controlled rules are read as the draft: the version an edit changes (the plain read
// answers the version in force).
const EDITS: VersionedEdit[] = [
  {
    name: 'cleaning limit policy',
    method: 'POST',
    path: () => `${t.F}/cleaning_limit_policies`,
    change: (n) => ({ residueType: 'Chemical', globalRecoveryPercentage: 80 + n }),
    read: async () => {
      const b = await get(`${t.F}/cleaning_limit_policies/Chemical?version=draft`);
      return { version: b.version, marker: b.policy.globalRecoveryPercentage };
    },
  },
  {
    name: 'intermediate cleaning limit policy',
    method: 'POST',
    path: () => `${t.F}/intermediate-cleaning-limit-policies`,
    change: (n) => ({ globalRecoveryPercentage: 80 + n }),
    read: async () => {
      const { policy } = await get(`${t.F}/intermediate-cleaning-limit-policies?version=draft`);
      return { version: policy.version, marker: policy.policy.globalRecoveryPercentage };
    },
  },
  {
    name: 'microbial cleaning limit policy',
    method: 'POST',
    path: () => `${t.F}/microbial-cleaning-limit-policies`,
    change: (n) => ({ rinseLimit: 10 + n }),
    read: async () => {
      const b = await get(`${t.F}/microbial-cleaning-limit-policies?version=draft`);
      return { version: b.version, marker: b.policy.rinseLimit };
    },
  },
  {
    name: 'cleaning inspection settings',
    method: 'POST',
    path: () => `${t.F}/cleaning-inspection-settings`,
    change: (n) => ({ minimumLightLux: 600 + n }),
    read: async () => {
      const b = await get(`${t.F}/cleaning-inspection-settings?version=draft`);
      return { version: b.version, marker: b.cleaningInspectionSettings.minimumLightLux };
    },
  },
  {
    name: 'approval policy',
    method: 'POST',
    path: () => `${t.F}/approval_policies`,
    change: (n) => ({
      documentType: 'Protocol',
      allowSelfApproval: false,
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: n + 1 }],
    }),
    read: async () => {
      const b = (await get(`${t.F}/approval_policies?documentType=Protocol`)).approvalPolicy;
      return { version: b.version, marker: b.steps[0].minSignatures };
    },
  },
  {
    name: 'room grade',
    method: 'POST',
    path: () => `${t.F}/room-grades/A`,
    change: async (n) => ({ equipments: (await equipment()).slice(0, n) }),
    read: async () => {
      const grade = (await get(`${t.F}/room-grades`)).data.find((g: Body) => g.grade === 'A');
      return { version: grade.version, marker: grade.equipmentIds.length };
    },
  },
  {
    name: 'password policy',
    method: 'PUT',
    path: () => '/api/v2/users/password-policy',
    change: async (n) => {
      const { version: _v, ...policy } = await get('/api/v2/users/password-policy');
      return { ...policy, maxLoginAttempts: 3 + n };
    },
    read: async () => {
      const b = await get('/api/v2/users/password-policy');
      return { version: b.version, marker: b.maxLoginAttempts };
    },
  },
  {
    name: 'allowed domains',
    method: 'PUT',
    path: () => '/api/v2/users/allowedDomains',
    change: (n) => ({ allowedDomains: [`site${n}.example`] }),
    read: async () => {
      const b = await get('/api/v2/users/allowedDomains');
      return { version: b.version, marker: b.allowedDomains[0] };
    },
  },
];

describe('every edit takes the version it was made from', () => {
  it.each(EDITS.map((e) => [e.name, e] as const))(
    '%s: no version gets 422 naming it; a stale one 409 and the first edit stays',
    async (_name, edit) => {
      const path = await edit.path();
      const before = await edit.read();
      const missing = await t.call(edit.method, path, {
        ...(await edit.change(1)),
        reason: 'No v',
      });
      expect(missing.status).toBe(422);
      expect(missing.body.errors.map((e: Body) => e.property)).toContain('version');
      expect(await edit.read()).toEqual(before);

      // Two people open the same version; the first saves, the second's save is refused.
      const alice = await t.call(edit.method, path, {
        ...(await edit.change(1)),
        version: before.version,
        reason: 'Alice',
      });
      expect(alice.status).toBe(200);
      const afterAlice = await edit.read();
      expect(afterAlice.version).toBe(before.version + 1);
      const bob = await t.call(edit.method, path, {
        ...(await edit.change(2)),
        version: before.version,
        reason: 'Bob',
      });
      expect(bob.status).toBe(409);
      expect(bob.body).toMatchObject({ errName: 'VersionConflictError' });
      expect(await edit.read()).toEqual(afterAlice);
    },
  );
});
