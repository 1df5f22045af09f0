import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from '#core/errors/errors.ts';
import { recordAfterRollback, withinTransaction, type Db } from '../db/db.ts';
import { sessionOf } from './session-guard.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e]{1,200}$/;

export const IDEMPOTENCY_NOTE =
  'An optional `Idempotency-Key` header (up to 200 visible characters, e.g. a UUID per form submit) makes a retry safe: the same key and body within 24 hours replays the first answer and creates nothing; the same key with another body gets 422.';

function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY.test(header)) {
    throw validationError([
      {
        property: 'Idempotency-Key',
        constraints: { format: 'Must be 1 to 200 visible characters, such as a UUID' },
      },
    ]);
  }
  return header;
}

/** What makes two requests "the same": the route with its parameters and the validated body. */
function hashOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Runs a create once per Idempotency-Key. The key is claimed in the transaction that creates the
 * record and the answer stored there too, so both commit or neither does; a concurrent request
 * with the same key waits on the claim and then replays the answer. Without the header the create
 * simply runs. A failed create stores nothing, so a retry after an error runs again.
 */
export async function idempotentCreate<T>(
  db: Db,
  request: FastifyRequest,
  create: (db: Db) => Promise<T>,
): Promise<T> {
  const key = keyOf(request);
  if (key === undefined) return create(db);
  const userId = sessionOf(request).user.id;
  const hash = hashOf(request);
  try {
    return await claimAndCreate(db, userId, key, hash, create);
  } catch (error) {
    await recordAfterRollback(error, db);
    throw error;
  }
}

async function claimAndCreate<T>(
  db: Db,
  userId: number,
  key: string,
  hash: string,
  create: (db: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(
      `delete from idempotency_keys where user_id = $1 and created_at < now() - interval '24 hours'`,
      [userId],
    );
    const claimed = await tx.query(
      `insert into idempotency_keys (user_id, key, request_hash) values ($1, $2, $3)
       on conflict do nothing returning key`,
      [userId, key, hash],
    );
    if (claimed.length === 0) {
      const [stored] = await tx.query<{ request_hash: string; response: T | null }>(
        `select request_hash, response from idempotency_keys where user_id = $1 and key = $2`,
        [userId, key],
      );
      if (!stored || stored.response === null) throw new AppError('TransactionLocked');
      if (stored.request_hash !== hash) {
        throw validationError([
          {
            property: 'Idempotency-Key',
            constraints: {
              reused: 'This key was already used for another request; send a new key',
            },
          },
        ]);
      }
      return stored.response;
    }
    const result = await create(withinTransaction(tx, db.kind));
    await tx.query(
      `update idempotency_keys set status_code = 200, response = $3 where user_id = $1 and key = $2`,
      [userId, key, JSON.stringify(result)],
    );
    return result;
  });
}
