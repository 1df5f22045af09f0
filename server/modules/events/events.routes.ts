import type { ServerResponse } from 'node:http';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import {
  facilityPermissions,
  sessionLimitsOf,
  sessionOf,
  tokenOf,
} from '#server/http/session-guard.ts';
import { resolveSession } from '#server/sessions/session-lookup.ts';
import { createLiveEvents, type LiveChange } from './live-events.ts';

// The client waits this long before its first reconnect (it backs off from there).
const RETRY_MS = 2_000;
const MAX_UNREAD_BYTES = 256 * 1024;
const RECHECK_MS = 1_000;

const frame = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * `GET {F}/events`: the facility's changes as server-sent events, so that a record, list or
 * dashboard open in one browser follows what another user changes or signs (issue 30). Each
 * event names a kind, an id and a version only; the screens read the content again through
 * their own guarded routes.
 */
export function registerLiveEventRoutes({ app, db, config, permitMember }: AppContext): void {
  const r = typed(app);
  const F = '/api/v2/plans/:plan/facilities/:facility';
  const live = createLiveEvents(db);
  const open = new Set<ServerResponse>();
  const limits = sessionLimitsOf(config);
  // Proxies close a response that stays silent for long (nginx: 60 s); a heartbeat keeps it
  // open and tells the client the stream is alive.
  const heartbeatMs = config.EVENTS_HEARTBEAT_SECONDS * 1000;

  // An open stream would hold the server's close for ever: shutdown ends them first.
  app.addHook('preClose', async () => {
    for (const response of open) response.end();
    open.clear();
    await live.settled();
  });

  r.get(
    `${F}/events`,
    {
      preHandler: permitMember(),
      schema: {
        tags: ['events'],
        summary: "The facility's changes as they commit (server-sent events)",
        description:
          'A `text/event-stream`: `ready` once listening, then `change` with `{ kind, id, version }` for every record of the facility written or signed by anyone, `heartbeat` every EVENTS_HEARTBEAT_SECONDS (15 s by default), and `end` when the session ends or the grant is withdrawn, just before the stream closes. Only facilities granted to the caller; a user without a role in the facility gets 403.',
        params: ZFacilityParams,
      },
    },
    async (request, reply) => {
      const { plan, facility } = request.params;
      const token = tokenOf(request);
      const isBackground = true;
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'x-request-id': request.id,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        // nginx buffers responses unless told not to; events must pass at once.
        'x-accel-buffering': 'no',
      });
      response.write(`retry: ${RETRY_MS}\n\n`);
      open.add(response);

      // A heartbeat's session read can finish after the stream ended: a write then would fail.
      // A client that stops reading is let go rather than buffered for: on reconnecting it
      // refetches what it shows anyway.
      const write = (text: string) => {
        if (response.writableEnded || response.destroyed) return;
        if (response.writableLength > MAX_UNREAD_BYTES) end();
        else response.write(text);
      };
      // The session is read again before changes are told (at most once a second) and at each
      // heartbeat: a signed-out, superseded, expired or withdrawn user stops hearing the
      // facility at once, and their page does not refetch into refusals (21 CFR 11.10(d),
      // access limited to authorised individuals).
      let checkedAt = 0;
      let checking: Promise<boolean> | null = null;
      const isStillAllowed = (): Promise<boolean> => {
        if (Date.now() - checkedAt < RECHECK_MS) return Promise.resolve(true);
        checking ??= resolveSession(db, token, limits, { isBackground })
          .then((session) => {
            if (session.sessionId !== sessionOf(request).sessionId) return false;
            facilityPermissions(session, plan, facility);
            checkedAt = Date.now();
            return true;
          })
          .catch(() => false)
          .finally(() => {
            checking = null;
          });
        return checking;
      };
      const tell = (text: string) =>
        void isStillAllowed().then((isAllowed) => {
          if (isAllowed) return write(text);
          // Told, so that the browser does not try again with the same session.
          write(frame('end', {}));
          end();
        });
      const unsubscribe = live.subscribe(facility, (change: LiveChange) =>
        tell(frame('change', change)),
      );
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(response);
        if (!response.writableEnded) response.end();
      };
      const heartbeat = setInterval(() => {
        checkedAt = 0;
        tell(frame('heartbeat', {}));
      }, heartbeatMs).unref();
      response.on('close', end);
      // `ready` says that every commit from now on will be heard: the client refetches what
      // it shows on a reconnect's ready, as something may have changed while it was away.
      await live.listening();
      write(frame('ready', {}));
    },
  );
}
