import { hash as digest, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** 256 random bits, URL-safe: session tokens, reset links, change-password links, secret keys. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Tokens are stored only as this hash; a leaked table yields no usable token. The one-shot
 * digest, not createHash: every request hashes its session token.
 */
export function hashToken(token: string): string {
  return digest('sha256', token, 'hex');
}

// OWASP's minimum for argon2id (m=19 MiB, t=2, p=1); @node-rs/argon2 hashes off the event loop.
const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/** The hash of a password nobody knows, made once per process. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomToken());
  return dummyHash;
}

/**
 * Without a stored hash (an unknown user, or one who never set a password) it still verifies,
 * against a dummy hash, so that the answer takes as long as a wrong password and its timing does
 * not tell which accounts exist.
 */
export async function verifyPassword(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  try {
    if (!passwordHash) {
      await verify(await dummyPasswordHash(), password);
      return false;
    }
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
