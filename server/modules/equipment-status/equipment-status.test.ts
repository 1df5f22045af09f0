import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '#core/errors/errors.ts';
import { formatDateTime } from '#core/datetime/format-date-time.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import { adminActor, adminSigner } from '#server/test/factories/admin.ts';
import { buildApprovedProtocol } from '#server/test/factories/verification.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { createHash } from 'node:crypto';
import { writeAudit } from '#server/db/audit-write.ts';
import type { SqlValue } from '#server/db/db.ts';
import { canonicalJson } from '#server/records/controlled.ts';
import { listEquipmentStatus, readLogbook } from './logbook.read.ts';
import { recordEntry } from './logbook.service.ts';

/*
 * Issue 31: the cleaning and use log and the production hold, over HTTP on a real database, and
 * the hold expiry by the services with a clock of the test's own.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
let f: RunFacility;
let product: number;
/** Records cleanings (Equipment Modify) and may sign, but not what they cleaned. */
let cleaner: string;

beforeAll(async () => {
  f = await kit.build();
  product = f.productIds[0]!;
  const user = await buildUser(t.server.db, {
    facilityIds: [t.facilityId],
    permissions: permissionsWith({ Equipment: ['Get', 'Modify'], ApprovalPolicy: ['Sign'] }),
  });
  cleaner = await t.server.login(user.username, user.password);
});

let names = 0;
async function item(): Promise<number> {
  names += 1;
  const res = await t.call('POST', `${t.F}/equipments`, {
    name: `Granulator ${names}`,
    surfaceArea: { value: 2, unit: 'sqm' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id;
}

const log = (id: number, body: Record<string, unknown>, as?: string) =>
  t.call('POST', `${t.F}/equipment/${id}/logbook`, body, as);
async function ok(id: number, body: Record<string, unknown>, as?: string): Promise<Body> {
  const res = await log(id, body, as);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const stateOf = async (id: number) =>
  (await t.call('GET', `${t.F}/equipment/${id}/logbook`)).body.status as Body;
const release = (id: number, extra: Record<string, unknown> = {}, as?: string) =>
  log(id, { event: 'Released', password: ADMIN.password, ...extra }, as);

/** Cleaned by the cleaner: CleaningStarted and CleaningEnded (with `ended`). */
async function cleaned(id: number, ended: Record<string, unknown> = {}) {
  await ok(id, { event: 'CleaningStarted' }, cleaner);
  return ok(id, { event: 'CleaningEnded', ...ended }, cleaner);
}

describe('the equipment logbook', () => {
  it('is refused without the Equipment permissions', async () => {
    const id = await item();
    const reader = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const as = await t.server.login(reader.username, reader.password);
    expect((await t.call('GET', `${t.F}/equipment-status`, undefined, as)).status).toBe(200);
    expect((await t.call('GET', `${t.F}/equipment/${id}/logbook`, undefined, as)).status).toBe(200);
    expect((await log(id, { event: 'CleaningStarted' }, as)).status).toBe(403);
    const stranger = await buildUser(t.server.db);
    const other = await t.server.login(stranger.username, stranger.password);
    expect((await t.call('GET', `${t.F}/equipment-status`, undefined, other)).status).toBe(403);
    const missing = await t.call('GET', `${t.F}/equipment/999999/logbook`);
    expect(missing.status).toBe(404);
    // What was asked for in words, without the id a person never typed (issue 30).
    expect(missing.body.message).toBe(
      'No such equipment in this facility (it may have been archived)',
    );
  });

  it('holds production until a second person releases the cleaned item, then logs its use', async () => {
    const id = await item();
    const fresh = await stateOf(id);
    expect(fresh).toMatchObject({ state: 'Dirty', since: null, equipmentId: id });

    const refused = await log(id, { event: 'UseStarted', productId: product, batch: 'B-100' });
    expect(refused.status).toBe(409);
    expect(refused.body.errName).toBe('EquipmentNotReleased');
    expect(refused.body.otherErrors).toEqual(['No cleaning recorded in the logbook']);

    const early = await log(id, { event: 'CleaningEnded' }, cleaner);
    expect(early.status).toBe(422);
    expect(early.body.errors[0].property).toBe('event');

    const started = await ok(id, { event: 'CleaningStarted' }, cleaner);
    expect(started.status.state).toBe('Cleaning');
    const ended = await ok(id, { event: 'CleaningEnded' }, cleaner);
    expect(ended.status.state).toBe('CleanAwaitingRelease');
    expect(ended.entry).toMatchObject({ event: 'CleaningEnded', backDated: false });

    // Separation of duties (21 CFR 211.67, Part 11 §11.200): not who cleaned, and signed.
    const ownRelease = await release(id, { password: 'Secret#123' }, cleaner);
    expect(ownRelease.status).toBe(403);
    expect(ownRelease.body.errName).toBe('NotAllowed');
    const unsigned = await log(id, { event: 'Released' });
    expect(unsigned.status).toBe(422);
    expect(unsigned.body.errors[0].property).toBe('password');
    const wrong = await release(id, { password: 'not-it' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].property).toBe('password');
    const noRight = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ Equipment: ['Get', 'Modify'] }),
    });
    const noRightToken = await t.server.login(noRight.username, noRight.password);
    const unentitled = await release(id, { password: noRight.password }, noRightToken);
    expect(unentitled.status).toBe(403);
    // The missing right in words, never its key (issue 30).
    expect(unentitled.body.message).toBe('Releasing equipment needs the right to approve records');
    expect((await stateOf(id)).state).toBe('CleanAwaitingRelease');

    const released = await release(id);
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.entry).toMatchObject({
      event: 'Released',
      signatureMeaning: 'Release equipment',
      releasedAtRisk: false,
    });
    expect(released.body.entry.signedContentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(released.body.status).toMatchObject({ state: 'Released', blockingReasons: [] });

    const foreign = await log(id, { event: 'UseStarted', productId: 99999999, batch: 'B-100' });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].property).toBe('productId');
    const noBatch = await log(id, { event: 'UseStarted', productId: product });
    expect(noBatch.status).toBe(422);
    expect(noBatch.body.errors[0].property).toBe('batch');
    const use = await ok(id, { event: 'UseStarted', productId: product, batch: 'B-100' });
    expect(use.status).toMatchObject({
      state: 'InUse',
      lastProductId: product,
      lastBatch: 'B-100',
    });
    const again = await log(id, { event: 'UseStarted', productId: product, batch: 'B-101' });
    expect(again.body.errName).toBe('EquipmentNotReleased');
    const done = await ok(id, { event: 'UseEnded' });
    expect(done.status).toMatchObject({ state: 'Dirty', lastBatch: 'B-100', dirtyHoldDueAt: null });

    // The board reads the fold the write kept, or folds the log when none names its last entry.
    const kept = (await t.call('GET', `${t.F}/equipment-status`)).body.items;
    await t.server.db.query('delete from equipment_status where equipment_id = $1', [id]);
    expect((await t.call('GET', `${t.F}/equipment-status`)).body.items).toEqual(kept);
    expect(kept.find((i: Body) => i.equipmentId === id)).toEqual(done.status);
    const board = await t.call('GET', `${t.F}/equipment-status?state=Dirty`);
    expect(board.body.items.map((i: Body) => i.equipmentId)).toContain(id);
    expect(board.body.items.every((i: Body) => i.state === 'Dirty')).toBe(true);

    const logbook = await t.call('GET', `${t.F}/equipment/${id}/logbook`);
    expect(logbook.body.entries.map((e: Body) => e.event)).toEqual([
      'CleaningStarted',
      'CleaningEnded',
      'Released',
      'UseStarted',
      'UseEnded',
    ]);
    const audit = await t.server.db.query<{ action: string; user_id: number }>(
      `select action, user_id from audit_log where domain = 'EquipmentLogbook' and entity_id = $1
        order by id`,
      [String(id)],
    );
    expect(audit.map((a) => a.action)).toEqual([
      'Refused', // the first use, on an item never cleaned
      'CleaningStarted',
      'CleaningEnded',
      'Refused', // the cleaner's own release
      'Refused', // a release without the right to sign
      'Released',
      'UseStarted',
      'Refused', // a second use while in use
      'UseEnded',
    ]);
  });

  it('filters the board by line: the equipment of a production', async () => {
    const [onLine, offLine] = [await item(), await item()];
    await ok(onLine, { event: 'CleaningStarted' }, cleaner);
    const line = await t.call('POST', `${t.F}/productions`, {
      name: `Line ${names}`,
      equipmentIds: [onLine],
    });
    expect(line.status).toBe(200);
    const board = await t.call(
      'GET',
      `${t.F}/equipment-status?productionId=${line.body.result.id}`,
    );
    expect(board.body.items.map((i: Body) => [i.equipmentId, i.state])).toEqual([
      [onLine, 'Cleaning'],
    ]);
    // The line's train is as ready as its least ready item.
    expect(board.body.trains).toEqual([
      {
        productionId: line.body.result.id,
        name: `Line ${names}`,
        state: 'Cleaning',
        equipmentIds: [onLine],
        blockingReasons: [`${board.body.items[0].name}: Cleaning in progress`],
      },
    ]);
    const cleaning = await t.call(
      'GET',
      `${t.F}/equipment-status?productionId=${line.body.result.id}&state=Dirty`,
    );
    expect(cleaning.body).toEqual({ items: [], trains: [] });
    expect(offLine).not.toBe(onLine);
    expect((await t.call('GET', `${t.F}/equipment-status?productionId=99999999`)).status).toBe(404);
  });

  it('signs each release among the signatures, checked against the stored entry', async () => {
    const id = await item();
    await cleaned(id);
    const first = (await release(id)).body;
    await ok(id, { event: 'UseStarted', productId: product, batch: 'B-300' });
    await ok(id, { event: 'UseEnded' });
    await cleaned(id);
    const second = (await release(id)).body;
    const signaturesOf = async (as?: string) =>
      t.call(
        'GET',
        `${t.F}/signatures?documentType=EquipmentRelease&documentId=${id}`,
        undefined,
        as,
      );
    const listed = (await signaturesOf()).body.signatures as Body[];
    expect(listed).toMatchObject([
      { versionNumber: 1, id: first.entry.signatureId },
      { versionNumber: 2, id: second.entry.signatureId },
    ]);
    for (const [signature, entry] of [
      [listed[0]!, first.entry],
      [listed[1]!, second.entry],
    ] as const)
      expect(signature).toMatchObject({
        documentType: 'EquipmentRelease',
        documentId: id,
        action: 'Approve',
        signerRole: 'Approver',
        meaning: 'Release equipment',
        printedName: entry.signerPrintedName,
        contentHash: entry.signedContentHash,
        valid: true,
      });
    expect(first.entry.signatureMeaning).toBe('Release equipment');

    // Whoever reads the equipment reads its releases' signatures; a stranger does not.
    const reader = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    expect((await signaturesOf(readerToken)).status).toBe(200);
    const stranger = await buildUser(t.server.db, { facilityIds: [t.facilityId] });
    const strangerToken = await t.server.login(stranger.username, stranger.password);
    expect((await signaturesOf(strangerToken)).status).toBe(403);

    // An entry changed behind the application (by the owner) no longer verifies, here and in
    // the audit verify, as any signed record would not; put back, it verifies again.
    const verify = async () =>
      (await t.call('GET', `${t.F}/audit_logs/verify`)).body.signatures.invalid as Body[];
    expect(await verify()).toEqual([]);
    const owner = await t.server.db.owner();
    const tamper = (batch: string | null) =>
      owner.transaction(async (tx) => {
        await tx.query('alter table equipment_logbook disable trigger equipment_logbook_no_update');
        await tx.query('update equipment_logbook set batch = $2 where id = $1', [
          first.entry.id,
          batch,
        ]);
        await tx.query('alter table equipment_logbook enable trigger equipment_logbook_no_update');
      });
    await tamper('B-999');
    try {
      const changed = (await signaturesOf()).body.signatures as Body[];
      expect(changed.map((s) => s.valid)).toEqual([false, true]);
      expect(await verify()).toEqual([
        {
          id: first.entry.signatureId,
          documentType: 'EquipmentRelease',
          documentId: id,
          versionNumber: 1,
          problem: 'record_changed',
        },
      ]);
    } finally {
      await tamper(null);
    }
    expect(await verify()).toEqual([]);
  });

  it('lists the releases signed before the signatures kept them, each checked against its entry and its audit row', async () => {
    const id = await item();
    await cleaned(id);
    const admin = await adminActor(t.server.db);
    const [signer] = await t.server.db.query<{ name: string }>(
      `select first_name || ' ' || last_name as name from users where id = $1`,
      [admin.userId],
    );
    // A release as the write path before migration 20261211130000 made it: the signature's
    // printed name, meaning and hash in the entry itself, the same in its audit row.
    const at = new Date().toISOString();
    const values = {
      event: 'Released',
      at,
      backDated: false,
      productId: null,
      batch: null,
      cleaningProcedureId: null,
      runId: null,
      correctsId: null,
      dirtyHoldHours: null,
      cleanHoldHours: null,
      holdSource: null,
      releasedAtRisk: false,
    };
    const earlierRelease = (equipmentId: number, audited: boolean) =>
      t.server.db.transaction(async (tx) => {
        const hash = createHash('sha256')
          .update(
            canonicalJson({
              facilityId: t.facilityId,
              equipmentId,
              meaning: 'Release equipment',
              ...values,
            }),
          )
          .digest('hex');
        const [entry] = await tx.query<{ id: number }>(
          `insert into equipment_logbook (facility_id, equipment_id, event, occurred_at,
             signer_printed_name, signature_meaning, signed_content_hash, recorded_by)
           values ($1, $2, 'Released', $3, $4, 'Release equipment', $5, $6) returning id`,
          [t.facilityId, equipmentId, at, signer!.name, hash, admin.userId],
        );
        if (audited)
          await writeAudit(tx, admin, {
            planId: t.planId,
            facilityId: t.facilityId,
            domain: 'EquipmentLogbook',
            action: 'Released',
            entityId: equipmentId,
            newValues: {
              entryId: entry!.id,
              ...values,
              printedName: signer!.name,
              meaning: 'Release equipment',
              contentHash: hash,
            },
          });
        return { id: entry!.id, hash };
      });
    const earlier = await earlierRelease(id, true);
    // The next release goes on counting the item's releases after it.
    await ok(id, { event: 'UseStarted', productId: product, batch: 'B-400' });
    await ok(id, { event: 'UseEnded' });
    await cleaned(id);
    const next = (await release(id)).body;
    const signaturesOf = async () =>
      (await t.call('GET', `${t.F}/signatures?documentType=EquipmentRelease&documentId=${id}`)).body
        .signatures as Body[];
    expect(await signaturesOf()).toMatchObject([
      {
        id: -earlier.id,
        documentType: 'EquipmentRelease',
        documentId: id,
        versionNumber: 1,
        action: 'Approve',
        signerRole: 'Approver',
        meaning: 'Release equipment',
        printedName: signer!.name,
        userId: admin.userId,
        contentHash: earlier.hash,
        valid: true,
      },
      { id: next.entry.signatureId, versionNumber: 2, valid: true },
    ]);
    // The logbook (the printed equipment log) shows its signature as the entry keeps it.
    const logbook = (await t.call('GET', `${t.F}/equipment/${id}/logbook`)).body.entries as Body[];
    expect(logbook.find((e) => e.id === earlier.id)).toMatchObject({
      signatureId: null,
      signatureMeaning: 'Release equipment',
      signerPrintedName: signer!.name,
      signedContentHash: earlier.hash,
    });
    // Each release prints as a signed record does: what was signed, with the signature's
    // printed name, meaning and time beside it (21 CFR 11.50); the latest unless one is named.
    const releasePdf = async (versionNumber?: number) => {
      const query = `documentType=EquipmentRelease&documentId=${id}${versionNumber ? `&versionNumber=${versionNumber}` : ''}`;
      const res = await fetch(`${t.server.url}${t.F}/signatures/pdf?${query}`, {
        headers: { token: t.token },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      return (await readPdfText(new Uint8Array(await res.arrayBuffer()))).text;
    };
    const [{ name: itemName }] = (await t.server.db.query<{ name: string }>(
      'select name from equipment where id = $1',
      [id],
    )) as [{ name: string }];
    const first = await releasePdf(1);
    expect(first).toContain(`Release of ${itemName}`);
    expect(first).toContain('Equipment release');
    expect(first).toContain('Release equipment');
    expect(first).toContain(signer!.name);
    expect(first).toContain(earlier.hash);
    const latest = await releasePdf();
    expect(latest).toContain(`Release of ${itemName}`);
    expect(latest).toMatch(/Version\s+2/);
    const none = await t.call(
      'GET',
      `${t.F}/signatures/pdf?documentType=EquipmentRelease&documentId=${id}&versionNumber=9`,
    );
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('No such equipment release 9 in this facility');
    // A signed act that does not print (a site's PDE override) is refused as not found.
    const override = await t.call(
      'GET',
      `${t.F}/signatures/pdf?documentType=HbelOverride&documentId=${id}`,
    );
    expect(override.status).toBe(404);
    const verify = async () =>
      (await t.call('GET', `${t.F}/audit_logs/verify`)).body.signatures.invalid as Body[];
    expect(await verify()).toEqual([]);

    // Its entry changed behind the application no longer verifies, here and in the audit verify.
    const owner = await t.server.db.owner();
    const behind = (sql: string, params: SqlValue[]) =>
      owner.transaction(async (tx) => {
        await tx.query('alter table equipment_logbook disable trigger equipment_logbook_no_update');
        await tx.query(sql, params);
        await tx.query('alter table equipment_logbook enable trigger equipment_logbook_no_update');
      });
    const setBatch = (batch: string | null) =>
      behind('update equipment_logbook set batch = $2 where id = $1', [earlier.id, batch]);
    await setBatch('B-999');
    try {
      expect((await signaturesOf()).map((s) => s.valid)).toEqual([false, true]);
      expect(await verify()).toEqual([
        {
          id: -earlier.id,
          documentType: 'EquipmentRelease',
          documentId: id,
          versionNumber: 1,
          problem: 'record_changed',
        },
      ]);
    } finally {
      await setBatch(null);
    }
    expect(await verify()).toEqual([]);
    // Its signer changed behind the application: no row of the audit chain binds it any more.
    const [someoneElse] = await t.server.db.query<{ id: number }>(
      'select id from users where id <> $1 order by id limit 1',
      [admin.userId!],
    );
    const setSigner = (userId: number) =>
      behind('update equipment_logbook set recorded_by = $2 where id = $1', [earlier.id, userId]);
    await setSigner(someoneElse!.id);
    try {
      expect((await verify()).map((s) => [s.id, s.problem])).toEqual([
        [-earlier.id, 'no_chain_entry'],
      ]);
    } finally {
      await setSigner(admin.userId!);
    }
    expect(await verify()).toEqual([]);

    // An entry written into the table by other means, with no audit row binding it, is listed
    // but never valid.
    const other = await item();
    const forged = await earlierRelease(other, false);
    try {
      const listed = (
        await t.call('GET', `${t.F}/signatures?documentType=EquipmentRelease&documentId=${other}`)
      ).body.signatures as Body[];
      expect(listed).toMatchObject([{ id: -forged.id, contentHash: forged.hash, valid: false }]);
      expect(await verify()).toEqual([
        {
          id: -forged.id,
          documentType: 'EquipmentRelease',
          documentId: other,
          versionNumber: 1,
          problem: 'no_chain_entry',
        },
      ]);
    } finally {
      await behind('delete from equipment_logbook where id = $1', [forged.id]);
    }
    expect(await verify()).toEqual([]);
  });

  it('blocks with a reason and brings an unblocked item back Dirty', async () => {
    const id = await item();
    await cleaned(id);
    expect((await log(id, { event: 'Blocked' })).body.errors[0].property).toBe('reason');
    const blocked = await ok(id, { event: 'Blocked', reason: 'Gasket torn' });
    expect(blocked.status).toMatchObject({
      state: 'Blocked',
      blockingReasons: ['Blocked: Gasket torn'],
    });
    expect((await release(id)).body.errName).toBe('DataValidationError');
    const unblocked = await ok(id, { event: 'Unblocked', reason: 'Gasket replaced' });
    expect(unblocked.status.state).toBe('Dirty');
  });

  it('takes a back-dated entry only with a reason, never in the future or before the last', async () => {
    const id = await item();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await log(id, { event: 'CleaningStarted', at: future })).body.errors[0].property).toBe(
      'at',
    );
    expect((await log(id, { event: 'CleaningStarted', at: hourAgo })).body.errors[0].property).toBe(
      'reason',
    );
    const late = await ok(id, {
      event: 'CleaningStarted',
      at: hourAgo,
      reason: 'Recorded from the paper log after a network outage',
    });
    expect(late.entry).toMatchObject({ backDated: true, at: hourAgo });
    expect(Date.parse(late.entry.recordedAt)).toBeGreaterThan(Date.parse(hourAgo));
    const before = new Date(Date.now() - 7_200_000).toISOString();
    const earlier = await log(id, { event: 'CleaningEnded', at: before, reason: 'x' });
    expect(earlier.body.errors[0].property).toBe('at');
  });

  it('corrects an entry with a new one, and the database refuses any change of an entry', async () => {
    const id = await item();
    const ended = await cleaned(id);
    expect(
      (await log(id, { event: 'Correction', correctsId: ended.entry.id })).body.errors[0].property,
    ).toBe('reason');
    const corrected = await ok(id, {
      event: 'Correction',
      correctsId: ended.entry.id,
      reason: 'Cleaning not finished: rinse still running',
    });
    expect(corrected.status.state).toBe('Cleaning');
    const twice = await log(id, {
      event: 'Correction',
      correctsId: ended.entry.id,
      reason: 'again',
    });
    expect(twice.body.errors[0].property).toBe('correctsId');
    const { entries } = (await t.call('GET', `${t.F}/equipment/${id}/logbook`)).body;
    expect(entries.map((e: Body) => [e.event, e.correctedBy, e.correctsId])).toEqual([
      ['CleaningStarted', null, null],
      ['CleaningEnded', corrected.entry.id, null],
      ['Correction', null, ended.entry.id],
    ]);
    // On a server the app role is not granted UPDATE or DELETE at all; where one role owns
    // everything (the embedded database) the table's trigger refuses them.
    const refused = /append-only|permission denied for table equipment_logbook/;
    await expect(
      t.server.db.query(`update equipment_logbook set batch = 'x' where id = $1`, [ended.entry.id]),
    ).rejects.toThrow(refused);
    await expect(
      t.server.db.query(`delete from equipment_logbook where id = $1`, [ended.entry.id]),
    ).rejects.toThrow(refused);
  });

  it('releases only on a releasable verification run, at risk where the protocol allows it', async () => {
    const atRisk = await kit.inspectedRun(await kit.study(), '2026-11-01T08:00:00Z');
    expect(atRisk.releaseFlag).toBe('MAY_BE_RELEASED');
    const id = await item();
    const ended = await cleaned(id, { runId: atRisk.id });
    expect(ended.entry).toMatchObject({ cleanHoldHours: 72, holdSource: 'protocol' });
    expect(ended.status.cleanHoldExpiresAt).toBe(
      new Date(Date.parse(ended.entry.at) + 72 * 3_600_000).toISOString(),
    );
    const released = await release(id);
    // The entry names its run as people do (issue 30), never only by its database id.
    expect(released.body.entry).toMatchObject({
      releasedAtRisk: true,
      runId: atRisk.id,
      runName: `${atRisk.studyNumber as string} run ${atRisk.sequence as number}`,
    });

    const strict = await kit.study({ allowReleaseAtRisk: false });
    const pending = await kit.inspectedRun(strict, '2026-11-02T08:00:00Z');
    expect(pending.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    const held = await item();
    await cleaned(held, { runId: pending.id });
    const refused = await release(held);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      errName: 'EquipmentNotReleased',
      otherErrors: [
        `Verification run ${pending.studyNumber as string} run ${pending.sequence as number} cannot be released`,
      ],
    });
    expect((await stateOf(held)).state).toBe('CleanAwaitingRelease');

    const passed = await kit.completedRun(strict);
    expect(passed.releaseFlag).toBe('CAN_BE_RELEASED');
    const freed = await release(held, { runId: passed.id });
    expect(freed.body.entry).toMatchObject({ releasedAtRisk: false, runId: passed.id });
    const unknownRun = await item();
    await cleaned(unknownRun);
    const unknown = await release(unknownRun, { runId: 99999999 });
    expect(unknown.body.errors[0].property).toBe('runId');
  });

  it('expires the clean hold on the clock, and refuses a use or a release after it', async () => {
    const id = await item();
    const run = await kit.inspectedRun(await kit.study(), '2026-11-03T08:00:00Z');
    await cleaned(id, { runId: run.id });
    const released = await release(id);
    const expiry = Date.parse(released.body.status.cleanHoldExpiresAt);
    const db = t.server.db;
    const equipment = { id, name: released.body.status.name };
    const before = await readLogbook(db, t.facilityId, equipment, new Date(expiry - 1));
    expect(before.status.state).toBe('Released');
    const after = new Date(expiry + 1);
    const board = await listEquipmentStatus(db, t.facilityId, after);
    expect(board.find((i) => i.equipmentId === id)).toMatchObject({
      state: 'HoldExpired',
      since: new Date(expiry).toISOString(),
    });
    const actor = await adminActor(db);
    const scope = { planId: t.planId, facilityId: t.facilityId };
    const use = { event: 'UseStarted' as const, productId: product, batch: 'B-200' };
    const config = t.server.config;
    const signing = { config, key: () => signatureKey(config, () => undefined) };
    const refusal = await recordEntry(db, signing, actor, scope, id, use, after).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).errName).toBe('EquipmentNotReleased');
    // The moment in the facility's zone and formats, as every screen shows it (issue 30).
    const settings = await facilityDateTimeSettings(db, t.facilityId);
    expect((refusal as AppError).otherErrors).toEqual([
      `Clean hold expired at ${formatDateTime(expiry, settings)}: clean again`,
    ]);
    const inTime = await recordEntry(db, signing, actor, scope, id, use, new Date());
    expect(inTime.status.state).toBe('InUse');
  });

  it('pins the hold times of the approved protocol covering the item and its last product (or its group)', async () => {
    const id = await item();
    const admin = await adminSigner(t.server.db);
    const scope = { planId: t.planId, facilityId: t.facilityId };
    const covering = { equipmentIds: [id], productIds: [product], limitsSnapshotId: f.snapshotId };
    await buildApprovedProtocol(
      t.server,
      scope,
      { protocolNumber: `PR-HOLD-${id}`, name: 'Hold study', ...covering, dirtyHoldMaxHours: 8 },
      { submitter: admin },
    );
    await buildApprovedProtocol(
      t.server,
      scope,
      { protocolNumber: `PR-HOLD2-${id}`, name: 'Hold study 2', ...covering, dirtyHoldMaxHours: 6 },
      { submitter: admin },
    );
    // A protocol of the product's group covers it too (its worst case stands for the group).
    const group = await t.call('POST', `${t.F}/product_groups`, {
      name: `Hold bracket ${id}`,
      productIds: [product],
    });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    await buildApprovedProtocol(
      t.server,
      scope,
      {
        protocolNumber: `PR-HOLD3-${id}`,
        name: 'Hold study of the group',
        ...covering,
        productIds: [f.productIds[1]!],
        productGroupId: group.body.result.id,
        dirtyHoldMaxHours: 4,
      },
      { submitter: admin },
    );
    await cleaned(id);
    await release(id);
    await ok(id, { event: 'UseStarted', productId: product, batch: 'B-400' });
    const dirty = await ok(id, { event: 'UseEnded' });
    expect(dirty.entry).toMatchObject({ dirtyHoldHours: 4, holdSource: 'protocol' });
  });

  it('holds the next product when no Validated study covers the changeover from the last one', async () => {
    const id = await item();
    const [a, b] = f.productIds as [number, number];
    await cleaned(id);
    expect((await release(id)).status).toBe(200);
    await ok(id, { event: 'UseStarted', productId: a, batch: 'B-500' });
    await ok(id, { event: 'UseEnded' });
    await cleaned(id);
    expect((await release(id)).status).toBe(200);
    const name = (await stateOf(id)).name as string;
    const refused = await log(id, { event: 'UseStarted', productId: b, batch: 'B-501' });
    expect(refused.status).toBe(409);
    expect(refused.body.errName).toBe('EquipmentNotReleased');
    expect(refused.body.otherErrors).toEqual([
      `No study covers the cleaning of ${name} after A: verify this changeover before the next use`,
    ]);
    expect((await stateOf(id)).state).toBe('Released');

    // A Validated study covering the item for A lets B follow.
    const [e1] = await t.server.db.query<{ equipment_id: number }>(
      'select equipment_id from sampling_locations where id = $1',
      [f.steel],
    );
    const study = await kit.study({ equipmentIds: [e1!.equipment_id, id] });
    await t.server.db.query(
      `update studies set outcome = 'Validated', closed_at = now() where id = $1`,
      [study],
    );
    const use = await ok(id, { event: 'UseStarted', productId: b, batch: 'B-501' });
    expect(use.status).toMatchObject({ state: 'InUse', lastProductId: b });
  });

  it('pins the facility default hold times when no protocol gives them', async () => {
    await kit.inspectionSettings({
      visualInspectionRequired: true,
      minimumLightLux: 500,
      dirtyHoldTimeHours: 12,
      cleanHoldTimeHours: 48,
    });
    const id = await item();
    const twoDaysAgo = Date.now() - 49 * 3_600_000;
    const reason = 'Entered from the paper log';
    await ok(id, { event: 'CleaningStarted', at: new Date(twoDaysAgo).toISOString(), reason });
    const ended = await ok(id, {
      event: 'CleaningEnded',
      at: new Date(twoDaysAgo + 60_000).toISOString(),
      reason,
    });
    expect(ended.entry).toMatchObject({ cleanHoldHours: 48, holdSource: 'facility default' });
    expect(ended.status.state).toBe('HoldExpired');
    const late = await release(id);
    expect(late.status).toBe(409);
    expect(late.body.errName).toBe('EquipmentNotReleased');
    await cleaned(id);
    await release(id);
    await ok(id, { event: 'UseStarted', productId: product, batch: 'B-300' });
    const dirty = await ok(id, { event: 'UseEnded' });
    expect(dirty.entry).toMatchObject({ dirtyHoldHours: 12, holdSource: 'facility default' });
    expect(dirty.status.dirtyHoldDueAt).toBe(
      new Date(Date.parse(dirty.entry.at) + 12 * 3_600_000).toISOString(),
    );
  });
});
