import type { Queryable } from '#server/db/db.ts';

export interface ChainHead {
  seq: number;
  hash: string;
}

/** A chain head recorded outside the database, and whether its HMAC is right. */
export interface CheckedAnchor extends ChainHead {
  chain: string;
  at: string;
  signed: boolean;
  /** The rows' hashes from seq `from` to `seq`, on anchors that carry them. */
  from?: number;
  hashes?: string[];
}

export interface ChainCheck {
  chain: string;
  rows: number;
  intact: boolean;
  brokenSeq: number | null;
  /** gap, prev_hash, hash, head; anchor (differs from a signed anchor); anchor_signature. */
  problem: string | null;
  head: ChainHead | null;
  /** The latest signed anchor of this chain, null when none was written yet. */
  anchor: (ChainHead & { at: string }) | null;
}

export async function chainHeads(q: Queryable, chains: string[]): Promise<Map<string, ChainHead>> {
  const rows = await q.query<ChainHead & { chain: string }>(
    'select chain, seq, hash from audit_chain_heads where chain = any($1::text[]) order by chain',
    [chains],
  );
  return new Map(rows.map((r) => [r.chain, { seq: r.seq, hash: r.hash }]));
}

/**
 * Recomputes the chain in the database, then compares it with the anchors: a rewrite that
 * recomputed every hash is whole inside the database but no longer holds an anchored hash.
 */
export async function verifyChain(
  q: Queryable,
  chain: string,
  anchors: readonly CheckedAnchor[] = [],
): Promise<ChainCheck> {
  const [broken] = await q.query<{ broken_seq: number; problem: string }>(
    'select broken_seq, problem from audit_verify_chain($1)',
    [chain],
  );
  const [count] = await q.query<{ n: number }>(
    'select count(*)::int as n from audit_log where chain = $1',
    [chain],
  );
  const mine = anchors.filter((a) => a.chain === chain).sort((a, b) => a.seq - b.seq);
  const signed = mine.filter((a) => a.signed);
  const latest = signed.at(-1);
  const anchorProblem = broken ? undefined : await checkAnchors(q, chain, mine);
  const problem = broken
    ? { seq: broken.broken_seq, problem: broken.problem }
    : (anchorProblem ?? null);
  return {
    chain,
    rows: count?.n ?? 0,
    intact: !problem,
    brokenSeq: problem?.seq ?? null,
    problem: problem?.problem ?? null,
    head: (await chainHeads(q, [chain])).get(chain) ?? null,
    anchor: latest ? { seq: latest.seq, hash: latest.hash, at: latest.at } : null,
  };
}

/**
 * The first row, by seq, that differs from what a signed anchor recorded (every row since the
 * anchor before it, or the head alone on older anchors), or the first forged anchor.
 */
async function checkAnchors(
  q: Queryable,
  chain: string,
  anchors: readonly CheckedAnchor[],
): Promise<{ seq: number; problem: string } | undefined> {
  const expected = new Map<number, string>();
  let forged: number | undefined;
  for (const a of anchors) {
    if (!a.signed) {
      forged = Math.min(forged ?? a.seq, a.seq);
      continue;
    }
    expected.set(a.seq, a.hash);
    a.hashes?.forEach((hash, i) => {
      if (hash) expected.set(a.from! + i, hash);
    });
  }
  let changed: number | undefined;
  if (expected.size > 0) {
    const rows = await q.query<ChainHead>(
      'select seq::int as seq, hash from audit_log where chain = $1 and seq = any($2::bigint[])',
      [chain, [...expected.keys()]],
    );
    const stored = new Map(rows.map((r) => [r.seq, r.hash]));
    for (const [seq, hash] of expected)
      if (stored.get(seq) !== hash) changed = Math.min(changed ?? seq, seq);
  }
  if (changed === undefined && forged === undefined) return undefined;
  if (forged !== undefined && (changed === undefined || forged < changed))
    return { seq: forged, problem: 'anchor_signature' };
  return { seq: changed!, problem: 'anchor' };
}
