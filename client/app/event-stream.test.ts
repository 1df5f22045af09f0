import { describe, expect, it } from 'vitest';
import { parseEventStream, retryDelay } from './event-stream.ts';

describe('parseEventStream', () => {
  it('answers whole events, skips heartbeats and keeps the unfinished rest', () => {
    const text =
      'retry: 2000\nevent: ready\ndata: {}\n\n: heartbeat\n\nevent: change\ndata: {"kind":"runs","id":4,"version":2}\n\nevent: cha';
    expect(parseEventStream(text)).toEqual({
      events: [
        { event: 'ready', data: '{}' },
        { event: 'change', data: '{"kind":"runs","id":4,"version":2}' },
      ],
      rest: 'event: cha',
    });
  });

  it('continues an event split across chunks', () => {
    const first = parseEventStream('event: change\ndata: {"id"');
    expect(first.events).toEqual([]);
    const second = parseEventStream(`${first.rest}:1}\r\n\r\n`);
    expect(second.events).toEqual([{ event: 'change', data: '{"id":1}' }]);
  });
});

describe('retryDelay', () => {
  it('doubles from one second to a 30 s cap, between half and all of each step', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelay(n, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(retryDelay(0, () => 0)).toBe(500);
  });
});
