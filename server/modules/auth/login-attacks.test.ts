import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const login = (username: string, password: string) =>
  server.request<Record<string, string>>('POST', '/api/v2/auth/login', {
    body: { username, password },
  });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

describe('parallel wrong passwords', () => {
  const TRIALS = 5;

  it('never get more than the limit verified, lock the account, and keep the right password out', async () => {
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const user = await buildUser(server.db);
      let rightAnswer: Promise<{ status: number; body: Record<string, string> }> | undefined;
      const guesses = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await login(user.username, 'Wrong#pass1');
          // The limit is reached: the right password, sent while guesses are still in flight.
          if (res.body.errName === 'LoginAttemptsExceeded')
            rightAnswer ??= login(user.username, user.password);
          return res.body.errName;
        }),
      );
      const right = await rightAnswer;
      const [row] = await server.db.query<{ locked: boolean; verified: number }>(
        `select u.locked_until > now() as locked,
                (select count(*)::int from audit_log a
                  where a.action = 'LoginFailed' and a.entity_id = u.id::text) as verified
           from users u where u.id = $1`,
        [user.id],
      );
      console.log(
        `parallel guesses, trial ${trial + 1}: ${guesses.filter((g) => g === 'InvalidEmailOrPasswordError').length} wrong answered, ` +
          `${guesses.filter((g) => g === 'LoginAttemptsExceeded').length} refused as locked, ${row?.verified} verified, right password ${right?.status}`,
      );
      // Attempts 1–4 are told how many are left, the 5th locks, the other 15 are never verified.
      expect(guesses.filter((g) => g === 'InvalidEmailOrPasswordError')).toHaveLength(4);
      expect(guesses.filter((g) => g === 'LoginAttemptsExceeded')).toHaveLength(16);
      expect(row).toEqual({ locked: true, verified: 5 });
      expect(right?.status).toBe(400);
      expect(right?.body.errName).toBe('LoginAttemptsExceeded');
    }
  });
});

describe('parallel right passwords', () => {
  it('all sign in, and a wrong one among them is told its attempts, not a lock', async () => {
    const user = await buildUser(server.db);
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, () => login(user.username, user.password)),
      login(user.username, 'Wrong#pass1'),
    ]);
    const right = answers.slice(0, 30);
    console.log(
      `30 parallel sign-ins with the right password: ${right.filter((r) => r.status !== 200).length} refused`,
    );
    expect(right.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    expect(answers[30]?.body.errName).toBe('InvalidEmailOrPasswordError');
    const [row] = await server.db.query<{ locked: boolean; in_flight: number }>(
      `select coalesce(locked_until > now(), false) as locked,
              password_checks_in_flight as in_flight
         from users where id = $1`,
      [user.id],
    );
    expect(row).toEqual({ locked: false, in_flight: 0 });
  });
});

describe('an unknown user', () => {
  it('keeps the spec message and takes as long as a wrong password of a known one', async () => {
    const user = await buildUser(server.db);
    const unknown = await login('nobody.at.all@example.com', 'Wrong#pass1');
    expect(unknown.body).toMatchObject({
      errName: 'RequestingUserNotfound',
      message: 'Email address/ Employee ID is not recognized',
    });
    const known: number[] = [];
    const unknownTimes: number[] = [];
    const time = async (username: string) => {
      const started = performance.now();
      const res = await login(username, 'Wrong#pass1');
      expect(res.status).toBe(400);
      return performance.now() - started;
    };
    // Interleaved, so that a burst of load elsewhere on the machine hits both alike.
    for (let i = 0; i < 15; i += 1) {
      await server.db.query('update users set failed_attempts = 0 where id = $1', [user.id]);
      known.push(await time(user.username));
      unknownTimes.push(await time(`nobody${i}@example.com`));
    }
    const ratio = median(unknownTimes) / median(known);
    console.log(
      `login timing: known ${median(known).toFixed(1)} ms, unknown ${median(unknownTimes).toFixed(1)} ms (median of 15), ratio ${ratio.toFixed(2)}`,
    );
    // Without the dummy verification an unknown user answers in a fraction of the time.
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
