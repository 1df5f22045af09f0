import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { formatLogLine } from '../util/terminal-log.ts';
import { RequestLog } from './request-log.ts';

async function logOf(paths: string[]): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    logController: new RequestLog(),
  });
  app.get('/api/v2/things', async () => ({ ok: true }));
  app.get('/api/v2/health', async () => ({ status: 'ok' }));
  app.get('/assets/app.js', async () => 'js');
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    for (const path of paths) await (await fetch(url + path)).text();
  } finally {
    await app.close();
  }
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => !String(entry.msg).startsWith('Server listening'));
}

describe('the request log', () => {
  it('writes one line per API call, without its query string', async () => {
    const entries = await logOf(['/api/v2/things?search=secret%20batch', '/api/v2/nowhere']);
    const messages = entries.map((e) => String(e.msg));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^GET \/api\/v2\/things 200 \d+ ms$/);
    expect(messages[1]).toMatch(/^GET \/api\/v2\/nowhere 404 \d+ ms$/);
    expect(JSON.stringify(entries)).not.toContain('secret');
  });

  it('leaves static files and health probes out at info', async () => {
    const entries = await logOf(['/assets/app.js', '/api/v2/health', '/assets/missing.css']);
    expect(entries).toEqual([]);
  });
});

describe('the terminal log format', () => {
  it('turns a JSON line into time, level, message and the other fields', () => {
    const time = new Date(2026, 10, 28, 9, 5, 7).getTime();
    const line = JSON.stringify({ level: 40, time, pid: 1, hostname: 'h', msg: 'slow', ms: 12 });
    expect(formatLogLine(line)).toBe('09:05:07 WARN  slow ms=12\n');
  });

  it('prints an error with its stack below the line', () => {
    const line = JSON.stringify({
      level: 50,
      time: Date.now(),
      msg: 'failed',
      err: { message: 'boom', stack: 'Error: boom\n    at here' },
    });
    expect(formatLogLine(line)).toMatch(/ERROR failed\n {2}Error: boom\n {6}at here\n$/);
  });

  it('passes a line that is not JSON through as it is', () => {
    expect(formatLogLine('plain words')).toBe('plain words\n');
  });
});
