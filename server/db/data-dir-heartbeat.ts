import { Worker } from 'node:worker_threads';

/**
 * The lease's heartbeat runs in a thread of its own: PGlite works on the main thread, and a long
 * query or import there must not let the lease go stale while the process runs (another host
 * would then take over a folder that is still being written). A frozen process (a paused
 * container, a hung host) stops this thread too, which is when its lease should go stale.
 * Plain JavaScript, evaluated: it runs the same from the TypeScript sources and the build.
 */
const HEARTBEAT = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync, utimesSync } = require('node:fs');
const { file, instance, intervalMs, staleMs } = workerData;
let lastBeat = Date.now();
const timer = setInterval(() => {
  try {
    const now = new Date();
    utimesSync(file, now, now);
    const text = readFileSync(file, 'utf8');
    if (!text.includes(instance)) {
      clearInterval(timer);
      parentPort.postMessage({ lost: text });
      return;
    }
    lastBeat = Date.now();
  } catch (error) {
    // Gone, or the folder cannot be written (unmounted, full): once others may judge the lease
    // stale, this process no longer holds it.
    if (error.code === 'ENOENT' || Date.now() - lastBeat > staleMs / 2) {
      clearInterval(timer);
      parentPort.postMessage({ lost: error.code === 'ENOENT' ? '' : null });
    }
  }
}, intervalMs);
`;

/** What the heartbeat found when it stopped: the text of the lease that replaced this one. */
export type LostLease = { lost: string | null };

export function startHeartbeat(options: {
  file: string;
  instance: string;
  staleMs: number;
  onLost: (found: LostLease) => void;
}): () => void {
  const { file, instance, staleMs, onLost } = options;
  // Several beats within the stale time, so that one beat delayed by a busy disk loses nothing.
  const intervalMs = Math.max(50, Math.min(5_000, Math.floor(staleMs / 4)));
  const worker = new Worker(HEARTBEAT, {
    eval: true,
    // Not the process's own flags: `--input-type=module` would make this script a module.
    execArgv: [],
    workerData: { file, instance, intervalMs, staleMs },
  });
  let stopped = false;
  const lose = (found: LostLease) => {
    if (stopped) return;
    stopped = true;
    onLost(found);
  };
  worker.on('message', lose);
  // A heartbeat that died lets the lease go stale while this process writes: as good as lost.
  worker.on('error', () => lose({ lost: null }));
  worker.unref();
  return () => {
    stopped = true;
    void worker.terminate();
  };
}
