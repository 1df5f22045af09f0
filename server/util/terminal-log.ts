const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
// Written on every line by pino and Fastify; a person at a terminal reads them in the prefix.
const PREFIX_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

/** One of pino's JSON lines as "12:04:05 INFO message key=value", with an error's stack below. */
export function formatLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now());
  const clock = time.toTimeString().slice(0, 8);
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const extras = Object.entries(entry)
    .filter(([key]) => !PREFIX_KEYS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n  ${(err.stack ?? err.message ?? '').replace(/\n/g, '\n  ')}` : '';
  return `${clock} ${level.padEnd(5)} ${String(entry.msg ?? '')}${extras.length ? ` ${extras.join(' ')}` : ''}${stack}\n`;
}

/** A pino destination that writes readable lines to a terminal. */
export function terminalLogStream(out: NodeJS.WritableStream = process.stdout) {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) out.write(formatLogLine(line));
    },
  };
}
