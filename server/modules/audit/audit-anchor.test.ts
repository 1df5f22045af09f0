import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '#server/db/db.ts';
import { chainProbe } from '#server/test/chain-probe.ts';
import { buildUser } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  ANCHOR_FILE,
  anchorDir,
  anchorHmac,
  createAnchorStore,
  scheduleAnchors,
  type Anchor,
} from './audit-anchor.ts';
import { writeAuditMany } from '#server/db/audit-bulk.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { verifyChain } from './audit-chain.ts';

const KEY = 'test-anchor-key-0123456789abcdef0123456789';
const SYSTEM: Actor = {
  userId: null,
  userName: 'test',
  ip: null,
  userAgent: null,
  requestId: null,
};
let server: TestServer;
let token: string;
let planId: number;
let facilityId: number;
// The tests of anchors on a timer use the second facility's chain, which the others leave whole.
let otherFacilityId: number;
beforeAll(async () => {
  server = await startTestServer({ AUDIT_ANCHOR_KEY: KEY });
  token = await server.login();
  const [f] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  planId = f!.plan_id;
  facilityId = f!.id;
  const [other] = await server.db.query<{ id: number }>(
    'select id from facilities where plan_id = $1 and id <> $2 order by id limit 1',
    [planId, facilityId],
  );
  otherFacilityId = other!.id;
});
afterAll(async () => {
  await server?.close();
});

type VerifyBody = {
  intact: boolean;
  chains: {
    chain: string;
    intact: boolean;
    brokenSeq: number | null;
    problem: string | null;
    head: { seq: number; hash: string } | null;
    anchor: { seq: number; hash: string; at: string } | null;
  }[];
};

const anchorFile = () => join(anchorDir(server.config), ANCHOR_FILE);
const anchorLines = (): Anchor[] =>
  readFileSync(anchorFile(), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Anchor);

async function head(chain: string): Promise<{ seq: number; hash: string }> {
  const [row] = await server.db.query<{ seq: number; hash: string }>(
    'select seq, hash from audit_chain_heads where chain = $1',
    [chain],
  );
  return row!;
}

/** One chain as the facility's verify shows it. */
async function facilityVerify(facility: number, chain: string) {
  const res = await server.request<VerifyBody>(
    'GET',
    `/api/v2/plans/${planId}/facilities/${facility}/audit_logs/verify`,
    { token },
  );
  return res.body.chains.find((c) => c.chain === chain);
}

/**
 * A rewrite by someone with the owner's rights who also recomputes every later hash and the
 * head, so that the chain is whole again inside the database.
 */
async function rewriteConsistently(owner: Queryable, chain: string, seq: number): Promise<void> {
  await owner.exec(`
    begin;
    alter table audit_log disable trigger audit_log_no_update;
    update audit_log set reason = 'rewritten' where chain = '${chain}' and seq = ${seq};
    do $$
    declare r audit_log; prev text;
    begin
      select hash into prev from audit_log where chain = '${chain}' and seq = ${seq - 1};
      for r in select * from audit_log where chain = '${chain}' and seq >= ${seq} order by seq loop
        r.prev_hash := prev;
        r.hash := encode(sha256(convert_to(audit_row_text(r), 'UTF8')), 'hex');
        update audit_log set prev_hash = r.prev_hash, hash = r.hash where id = r.id;
        prev := r.hash;
      end loop;
      update audit_chain_heads set hash = prev where chain = '${chain}';
    end $$;
    alter table audit_log enable trigger audit_log_no_update;
    commit;`);
}

describe('audit chain anchors', () => {
  it('refuses a user without AuditLog Get, to anchor and to verify', async () => {
    const user = await buildUser(server.db);
    const other = await server.login(user.username, user.password);
    const anchor = await server.request('POST', '/api/v2/audit_logs/anchor', { token: other });
    expect(anchor.status).toBe(403);
    const verify = await server.request('GET', '/api/v2/audit_logs/verify', { token: other });
    expect(verify.status).toBe(403);
  });

  it('writes one signed line per chain head, readable by the server user only', async () => {
    const res = await server.request<{ anchors: { chain: string; seq: number; hash: string }[] }>(
      'POST',
      '/api/v2/audit_logs/anchor',
      { token },
    );
    expect(res.status).toBe(200);
    const planHead = await head(`plan:${planId}`);
    expect(res.body.anchors).toContainEqual(
      expect.objectContaining({ chain: `plan:${planId}`, ...planHead }),
    );
    expect(statSync(anchorFile()).mode & 0o777).toBe(0o600);
    const lines = anchorLines();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const { hmac, ...signed } = line;
      expect(hmac).toBe(anchorHmac(KEY, signed));
      expect(line.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(lines.find((l) => l.chain === `plan:${planId}`)).toMatchObject(planHead);
  });

  it('shows each head and its anchor in verify, and the chain is intact', async () => {
    const res = await server.request<VerifyBody>('GET', '/api/v2/audit_logs/verify', { token });
    expect(res.status).toBe(200);
    expect(res.body.intact).toBe(true);
    const plan = res.body.chains.find((c) => c.chain === `plan:${planId}`);
    expect(plan?.head).toEqual(await head(`plan:${planId}`));
    expect(plan?.anchor?.seq).toBeGreaterThan(0);
  });

  it('prints the chain heads in the audit log PDF', async () => {
    const res = await fetch(
      `${server.url}/api/v2/audit_logs/export?currentFacilityId=${facilityId}`,
      { headers: { token } },
    );
    expect(res.status).toBe(200);
    const pdfHead = await head(`plan:${planId}`);
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain(`Chain head plan:${planId}: seq ${pdfHead.seq}, hash ${pdfHead.hash}`);
  });

  it('detects a rewrite that recomputed every hash, and names the first rewritten row', async () => {
    const chain = `plan:${planId}`;
    await server.request('POST', '/api/v2/audit_logs/anchor', { token });
    const anchored = await head(chain);
    await rewriteConsistently(await server.db.owner(), chain, 2);
    // Inside the database the rewritten chain is whole again.
    expect(await verifyChain(server.db, chain)).toMatchObject({ intact: true });
    const res = await server.request<VerifyBody>('GET', '/api/v2/audit_logs/verify', { token });
    expect(res.body.intact).toBe(false);
    expect(res.body.chains.find((c) => c.chain === chain)).toMatchObject({
      intact: false,
      problem: 'anchor',
      brokenSeq: 2,
    });
    expect(anchored.seq).toBeGreaterThan(2);
  });

  it('refuses an anchor line forged without the key', async () => {
    const chain = `facility:${facilityId}`;
    const real = await head(chain);
    const [db] = anchorLines();
    appendFileSync(
      anchorFile(),
      `${JSON.stringify({ db: db!.db, chain, ...real, at: new Date().toISOString(), hmac: 'f'.repeat(64) })}\n`,
    );
    expect(await facilityVerify(facilityId, chain)).toMatchObject({
      intact: false,
      problem: 'anchor_signature',
    });
  });
});

describe('anchors while rows are written', () => {
  it('anchor only the chains written to since, with the hash of each row since the last anchor', async () => {
    const store = createAnchorStore(server.config, () => undefined);
    await store.write(server.db, { onlyMoved: true });
    // Nothing written since: no new line.
    expect(await store.write(server.db, { onlyMoved: true })).toEqual([]);
    const chain = `facility:${otherFacilityId}`;
    const before = (await head(chain)) ?? { seq: 0 };
    await server.db.transaction((tx) =>
      writeAuditMany(
        tx,
        SYSTEM,
        [1, 2, 3].map(() => chainProbe({ planId, facilityId: otherFacilityId, action: 'Write' })),
      ),
    );
    const written = await store.write(server.db, { onlyMoved: true });
    expect(written.map((a) => a.chain)).toEqual([chain]);
    const rows = await server.db.query<{ hash: string }>(
      'select hash from audit_log where chain = $1 and seq > $2 order by seq',
      [chain, before.seq],
    );
    expect(written[0]).toMatchObject({
      seq: before.seq + 3,
      from: before.seq + 1,
      hashes: rows.map((r) => r.hash),
    });
    expect(await store.write(server.db, { onlyMoved: true })).toEqual([]);
  });

  it('are written on a timer, so a rewrite after the next tick is named by verify', async () => {
    const chain = `facility:${otherFacilityId}`;
    const store = createAnchorStore(server.config, () => undefined);
    const errors: unknown[] = [];
    const stop = scheduleAnchors(server.db, store, 1, (error) => errors.push(error));
    try {
      await server.db.transaction((tx) =>
        writeAuditMany(
          tx,
          SYSTEM,
          [1, 2].map(() => chainProbe({ planId, facilityId: otherFacilityId, action: 'Write' })),
        ),
      );
      const written = await head(chain);
      await expect
        .poll(() => anchorLines().some((l) => l.chain === chain && l.seq === written.seq), {
          timeout: 5000,
          interval: 200,
        })
        .toBe(true);
      const lines = anchorLines().length;
      await new Promise((done) => setTimeout(done, 1500));
      // Quiet: the ticks since wrote nothing.
      expect(anchorLines()).toHaveLength(lines);
      await rewriteConsistently(await server.db.owner(), chain, written.seq - 1);
      expect(await facilityVerify(otherFacilityId, chain)).toMatchObject({
        intact: false,
        problem: 'anchor',
        brokenSeq: written.seq - 1,
      });
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe('an anchor written after a rewrite', () => {
  it('does not make the rewrite pass: the anchor before it still names the first rewritten row', async () => {
    // A chain of its own: the facility's, made here, which no other test rewrites.
    const made = await server.request<{ id: number }>(
      'POST',
      `/api/v2/plans/${planId}/facilities`,
      {
        token,
        body: { name: 'Anchored', productType: 'product', tier: 'full', facilityGroupId: 1 },
      },
    );
    expect(made.status).toBe(200);
    const facility = made.body.id;
    const chain = `facility:${facility}`;
    const store = createAnchorStore(server.config, () => undefined);
    const write = (n: number) =>
      server.db.transaction((tx) =>
        writeAuditMany(
          tx,
          SYSTEM,
          Array.from({ length: n }, () =>
            chainProbe({ planId, facilityId: facility, action: 'Write' }),
          ),
        ),
      );
    await write(3);
    await store.write(server.db, { onlyMoved: true });
    const anchored = await head(chain);
    await rewriteConsistently(await server.db.owner(), chain, anchored.seq - 1);
    // Writes go on, and the next anchor signs the chain as the rewrite left it.
    await write(1);
    const next = await store.write(server.db, { onlyMoved: true });
    expect(next.map((a) => a.chain)).toContain(chain);
    expect(await facilityVerify(facility, chain)).toMatchObject({
      intact: false,
      problem: 'anchor',
      brokenSeq: anchored.seq - 1,
    });
  });
});

describe('anchors without AUDIT_ANCHOR_KEY', () => {
  it('generate a key once, readable by the server user only, and warn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carryover-anchor-'));
    try {
      const warnings: string[] = [];
      const config = { DATA_DIR: dir, AUDIT_ANCHOR_DIR: undefined, AUDIT_ANCHOR_KEY: undefined };
      const first = createAnchorStore(config, (m) => warnings.push(m));
      const written = await first.write(server.db);
      expect(warnings).toEqual([expect.stringContaining('AUDIT_ANCHOR_KEY is not set')]);
      const keyFile = join(dir, 'audit-anchors', 'anchor.key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      // A restarted server reads the same key: its anchors still verify, and no new warning.
      const again = createAnchorStore(config, (m) => warnings.push(m));
      const read = await again.read(server.db);
      expect(read).toHaveLength(written.length);
      expect(read.every((a) => a.signed)).toBe(true);
      expect(warnings).toHaveLength(1);
      const key = readFileSync(keyFile, 'utf8');
      expect(written.every(({ hmac, ...a }) => hmac === anchorHmac(key, a))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
