import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#core/errors/errors.ts';

/** The largest file an import takes as its request body. */
export const IMPORT_BODY_LIMIT = 50 * 1024 * 1024;

/** How long a refused import is told to wait: a 10,000-row workbook imports in about 3 s. */
export const IMPORT_RETRY_AFTER_SECONDS = 5;

interface Slot {
  isStarted: boolean;
  isReleased: boolean;
}

/**
 * At most `limit` workbook imports at once in this instance (IMPORT_CONCURRENCY): each holds
 * its workbook and every parsed row in memory, so six at once took a server to 1.8 GB. A slot
 * is taken when the request's headers arrive, before its body is read, and given back when
 * the import ends, or when the request ends without reaching it (refused, aborted upload).
 * Another request meanwhile gets 429 TooManyRequests with Retry-After.
 */
export function importSlots(limit: number) {
  let inUse = 0;
  const slots = new WeakMap<FastifyRequest, Slot>();
  const release = (slot: Slot | undefined) => {
    if (!slot || slot.isReleased) return;
    slot.isReleased = true;
    inUse -= 1;
  };
  const settle = async (request: FastifyRequest): Promise<void> => {
    const slot = slots.get(request);
    if (slot && !slot.isStarted) release(slot);
  };

  return {
    /** onRequest hook: takes a slot or refuses the request. */
    async take(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (inUse >= limit) {
        reply.header('retry-after', String(IMPORT_RETRY_AFTER_SECONDS));
        throw new AppError(
          'TooManyRequests',
          `This server is already importing ${limit} workbook${limit === 1 ? '' : 's'}. Try again in ${IMPORT_RETRY_AFTER_SECONDS} seconds.`,
        );
      }
      inUse += 1;
      const slot: Slot = { isStarted: false, isReleased: false };
      slots.set(request, slot);
    },
    /**
     * onSend and onRequestAbort hook: a request answered without importing (refused, a bad
     * body) or an upload the client gave up on before the import began frees its slot. Settled
     * as the answer is sent, not after it: a caller refused (403, 422) may send its next file
     * at once and must find the slot free (onResponse gave it a false 429).
     */
    settle,
    async settleOnSend<T>(request: FastifyRequest, _reply: FastifyReply, payload: T): Promise<T> {
      await settle(request);
      return payload;
    },
    /** Runs the import in the request's slot (refused when the client left before it began). */
    async run<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
      const slot = slots.get(request);
      if (!slot || slot.isReleased)
        throw new AppError('TooManyRequests', 'The upload ended before the import began');
      slot.isStarted = true;
      try {
        return await work();
      } finally {
        release(slot);
      }
    },
    inUse: () => inUse,
  };
}
