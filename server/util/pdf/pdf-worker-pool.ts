import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { Worker, type MessagePort } from 'node:worker_threads';
import { PDF_WORKER_SOURCE } from './pdf-worker-source.ts';

const require = createRequire(import.meta.url);
const FONTS = require.resolve('pdfmake/fonts/Roboto.js');
const WORKER_DATA = {
  pdfmake: require.resolve('pdfmake'),
  pdfmakeRenderer: require.resolve('pdfmake/js/Renderer.js'),
  pdfmakeLayoutBuilder: require.resolve('pdfmake/js/LayoutBuilder.js'),
  pdfmakeSvgMeasure: require.resolve('pdfmake/js/SVGMeasure.js'),
  pdfmakeTableLayouts: require.resolve('pdfmake/js/tableLayouts.js'),
  pdfmakePageSize: require.resolve('pdfmake/js/PageSize.js'),
  pdfLib: require.resolve('pdf-lib'),
  fonts: FONTS,
  fontDir: dirname(FONTS),
};

/**
 * How long a worker waits for the next document before it stops. Starting one (a thread,
 * pdfmake and its fonts) costs a few hundred milliseconds of CPU, more on a busy machine: a
 * report generated after another, or the parts of a long document and their merge, find it
 * started. Idle workers do not keep the process alive.
 */
export const PDF_WORKER_IDLE_MS = 60_000;

/**
 * The worker's heap. By default V8 sizes it from the machine's memory (some 4 GiB here) and
 * lets it grow far past what a layout keeps alive: a document of 1,400 pages, streamed, whose
 * live heap stays near 45 MiB, took the process to 542 MiB. With a 16 MiB young generation and a
 * 1 GiB ceiling it collects sooner: 288 MiB, and 373 MiB for 2,800 pages, for the same CPU
 * (±5 %). 1 GiB is well above any one part's layout; a document past it fails as a whole.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 1024 };

/**
 * A render, a long document streamed a part at a time (each part asked for on `port`; into the
 * file `out` when given), or a merge (pdf-worker-source.ts).
 */
export type PdfTask =
  | { kind: 'render'; doc: unknown; frame: unknown; numbering?: SharedArrayBuffer }
  | { kind: 'stream'; doc: unknown; frame: unknown; port: MessagePort; out?: string }
  | { kind: 'merge'; parts: Uint8Array[]; info: unknown };

/** What a stream task wrote to its file. */
export interface WrittenPdf {
  bytes: number;
  sha256: string;
}

type Message = Uint8Array | { error: string } | { pages: number } | { written: WrittenPdf };

interface Running {
  onMessage(message: Message): void;
  onFailure(error: Error): void;
}

const idle: Worker[] = [];
const running = new Map<Worker, Running>();
const idleTimers = new Map<Worker, NodeJS.Timeout>();

function forget(worker: Worker): void {
  clearTimeout(idleTimers.get(worker));
  idleTimers.delete(worker);
  const at = idle.indexOf(worker);
  if (at >= 0) idle.splice(at, 1);
}

function startWorker(): Worker {
  const worker = new Worker(PDF_WORKER_SOURCE, {
    eval: true,
    workerData: WORKER_DATA,
    resourceLimits: WORKER_HEAP,
  });
  worker.on('message', (message: Message) => running.get(worker)?.onMessage(message));
  worker.on('error', (error) => running.get(worker)?.onFailure(error));
  worker.on('exit', (code) => {
    forget(worker);
    running.get(worker)?.onFailure(new Error(`PDF worker exited with ${code}`));
  });
  return worker;
}

function giveBack(worker: Worker, task: PdfTask['kind']): void {
  running.delete(worker);
  // Enough idle workers for the parts of one document; more would only hold memory. A worker
  // that streamed a long document holds the heap its layout grew to (some 130 MiB after 3,500
  // pages) while the report is stored and read: it stops, and the next one starts afresh.
  if (task === 'stream' || idle.length >= availableParallelism()) {
    void worker.terminate();
    return;
  }
  worker.unref();
  idle.push(worker);
  const timer = setTimeout(() => {
    forget(worker);
    void worker.terminate();
  }, PDF_WORKER_IDLE_MS);
  timer.unref();
  idleTimers.set(worker, timer);
}

/** The number of started workers waiting for a task (for tests). */
export const idlePdfWorkers = () => idle.length;

export interface RunningPdfTask<T = Buffer> {
  /** The file (or what was written of it), or the worker's error under `failure`. */
  done: Promise<T>;
  /** Stops the task's worker if it has not answered yet (a part whose sibling failed). */
  cancel(): Promise<void>;
}

/**
 * Runs a task on an idle worker, or a new one. `onPages` hears a part's page count
 * (pdf-worker-source.ts). A worker that answered goes back to the pool; one that failed to
 * answer (it crashed or was cancelled) is not reused.
 */
export function runPdfTask<T = Buffer>(
  task: PdfTask,
  failure: string,
  onPages?: (pages: number) => void,
): RunningPdfTask<T> {
  const worker = idle.pop() ?? startWorker();
  forget(worker);
  worker.ref();
  let answered = false;
  const done = new Promise<T>((resolve, reject) => {
    running.set(worker, {
      onMessage(message) {
        if ('pages' in message) return onPages?.(message.pages);
        answered = true;
        giveBack(worker, task.kind);
        // A view of the bytes the message brought, not a second copy of them.
        if (message instanceof Uint8Array)
          resolve(Buffer.from(message.buffer, message.byteOffset, message.byteLength) as T);
        else if ('written' in message) resolve(message.written as T);
        else reject(new Error(`${failure}: ${message.error}`));
      },
      onFailure(error) {
        answered = true;
        running.delete(worker);
        void worker.terminate();
        reject(error);
      },
    });
  });
  worker.postMessage(task, task.kind === 'stream' ? [task.port] : []);
  return {
    done,
    cancel: async () => {
      if (!answered) await worker.terminate();
    },
  };
}
