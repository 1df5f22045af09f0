import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { TReportFormat } from '#core/schemas/reports.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import type { PdfFile } from '#server/util/pdf/render-pdf.ts';
import { sha256 } from './controlled-pdf.ts';

/*
 * A report's files, kept a piece at a time (migration 20261221204001_report_file_parts.sql):
 * written from the rendered file and read out to a download piece by piece, so neither the
 * job nor a download holds a file of tens of megabytes whole, nor does PGlite's memory grow to
 * hold it (issue 34).
 */

/** One piece: large enough that a file is a few dozen rows, small enough to hold a few of. */
export const PIECE_BYTES = 1 << 20;

/**
 * A download reads a piece this much at a time. A bytea comes as text, in hex, twice its size:
 * a string of 2 MiB a piece, which V8 keeps in its large-object space until a full collection,
 * so that downloading the 13.6 MB PDF of every production at 5,000 products left some 50 MiB of
 * them at once (issue 34). 32 KiB is a string of 64 KiB, let go with the young generation.
 */
export const READ_BYTES = 1 << 15;

/** A file to store: its size, its SHA-256 and its bytes a piece at a time. */
export interface FileToStore {
  bytes: number;
  sha256: string;
  pieces(): AsyncIterable<Buffer>;
}

/** A file held in memory (a workbook). */
export function bufferToStore(buffer: Buffer): FileToStore {
  return {
    bytes: buffer.length,
    sha256: sha256(buffer),
    async *pieces() {
      for (let at = 0; at < buffer.length; at += PIECE_BYTES)
        yield buffer.subarray(at, at + PIECE_BYTES);
    },
  };
}

/** A rendered PDF's file, read a piece at a time. */
export function pdfFileToStore(file: PdfFile): FileToStore {
  return {
    bytes: file.bytes,
    sha256: file.sha256,
    pieces: () => createReadStream(file.path, { highWaterMark: PIECE_BYTES }),
  };
}

/** Stores a file of a report once per state: a second store of the same state changes nothing. */
export async function storeReportFile(
  q: Queryable,
  reportId: number,
  format: TReportFormat,
  stateKey: string,
  file: FileToStore,
): Promise<void> {
  const [stored] = await q.query<{ id: number }>(
    `insert into report_files (report_id, format, state_key, sha256, size)
     values ($1, $2, $3, $4, $5) on conflict (report_id, format, state_key) do nothing
     returning id`,
    [reportId, format, stateKey, file.sha256, file.bytes],
  );
  if (!stored) return;
  let seq = 0;
  for await (const piece of file.pieces())
    await q.query(
      'insert into report_file_parts (report_file_id, seq, bytes) values ($1, $2, $3)',
      [stored.id, seq++, piece],
    );
}

/** A stored file: its size, and its bytes as a stream that reads one piece at a time. */
export interface StoredReportFile {
  bytes: number;
  body: Readable;
}

/** The report's first stored file of a format (of a state, when `stateKey` is given). */
export async function storedReportFile(
  q: Queryable,
  reportId: number,
  format: TReportFormat,
  stateKey?: string,
): Promise<StoredReportFile | null> {
  const [file] = await q.query<{ id: number; size: string | number }>(
    `select id, size from report_files where report_id = $1 and format = $2
        and ($3::text is null or state_key = $3) order by id limit 1`,
    [reportId, format, stateKey ?? null],
  );
  if (!file) return null;
  async function* pieces() {
    for (let seq = 0; ; seq++)
      for (let at = 1; ; at += READ_BYTES) {
        const [read] = await q.query<{ bytes: Uint8Array }>(
          `select substring(bytes from $3 for ${READ_BYTES}) as bytes
             from report_file_parts where report_file_id = $1 and seq = $2`,
          [file!.id, seq, at],
        );
        if (!read) return;
        if (read.bytes.byteLength > 0)
          yield Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
        if (read.bytes.byteLength < READ_BYTES) break;
      }
  }
  return { bytes: Number(file.size), body: Readable.from(pieces(), { objectMode: false }) };
}
