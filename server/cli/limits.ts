/**
 * Command-line entry of the limits engine (contracts/limits.md):
 *   npm run --silent limits -- [--summary] INPUT.json|-
 * Prints one JSON document on standard output; exit 0 with the result, exit 2 with a
 * DataValidationError document for input that is not JSON or breaks a rule. All the calculation
 * is in core/; this file only reads the input and writes the output.
 */
import { readFileSync, readSync, writeSync } from 'node:fs';
import { AppError, validationError } from '#core/errors/errors.ts';
import type { PropertyError } from '#core/errors/errors.ts';
import { parseLimitsInput } from '#core/limits/contract-input.ts';
import { renderContractDocument } from '#core/limits/contract-output.ts';

/**
 * Writes to standard output synchronously, waiting while a pipe is full. The matrix streams its
 * pairs from a synchronous loop; process.stdout would queue them all in memory behind a slow
 * reader (600 MB for a 1,000-product matrix); this keeps the footprint at one chunk.
 */
const pause = new Int32Array(new SharedArrayBuffer(4));
function writeOut(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // the reader went away (`| head`): nothing more can be said, so stop quietly
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 0.1);
    }
  }
}

const USAGE = 'usage: limits [--summary] INPUT.json (or - for standard input)';

function fail(errors: PropertyError[], message?: string): void {
  writeOut(`${JSON.stringify(validationError(errors, message).toBody())}\n`);
  process.exitCode = 2;
}

function parseArgs(argv: string[]): { summary: boolean; source?: string; errors: PropertyError[] } {
  let summary = false;
  let source: string | undefined;
  const errors: PropertyError[] = [];
  for (const arg of argv) {
    if (arg === '--summary') summary = true;
    else if (arg === '--') continue;
    else if (arg.startsWith('--')) {
      errors.push({
        property: 'arguments',
        constraints: { option: `unknown option ${arg}; ${USAGE}` },
      });
    } else if (source === undefined) source = arg;
    else
      errors.push({ property: 'arguments', constraints: { extra: `unexpected ${arg}; ${USAGE}` } });
  }
  if (source === undefined) {
    errors.push({ property: 'arguments', constraints: { required: `no input file; ${USAGE}` } });
  }
  return source === undefined ? { summary, errors } : { summary, source, errors };
}

/** Standard input to the end, also when the pipe was left non-blocking (EAGAIN) by its writer. */
function readStdin(): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      if (code === 'EOF') break;
      throw error;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readSource(source: string): string {
  const text = source === '-' ? readStdin() : readFileSync(source, 'utf8');
  // a byte-order mark from a Windows editor is not part of the JSON
  return text.replace(/^\uFEFF/, '');
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  if (args.errors.length > 0 || args.source === undefined) return fail(args.errors);
  let text: string;
  try {
    text = readSource(args.source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail([
      { property: 'input', constraints: { readable: `cannot read ${args.source}: ${reason}` } },
    ]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail([{ property: 'input', constraints: { json: `not valid JSON: ${reason}` } }]);
  }
  const parsed = parseLimitsInput(raw);
  if (!parsed.ok) return fail(parsed.errors);
  renderContractDocument(parsed.input, { summary: args.summary }, writeOut);
}

try {
  main();
} catch (error) {
  // A defect, not bad input: say so in the catalogue's shape rather than with a stack trace.
  const message = error instanceof Error ? error.message : String(error);
  writeOut(`${JSON.stringify(new AppError('InternalServerError', message).toBody())}\n`);
  process.exitCode = 1;
}
