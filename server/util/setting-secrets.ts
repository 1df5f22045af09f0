/*
 * Secrets the application must read back (the SSO client secret, the directory's bind password,
 * webhook secrets), kept encrypted with SETTINGS_SECRET_KEY.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';

type KeyConfig = Pick<Config, 'SETTINGS_SECRET_KEY' | 'DATA_DIR'>;

/** The key of SETTINGS_SECRET_KEY, or of a random key file made once in DATA_DIR (mode 0600). */
function settingsKey(config: KeyConfig): Buffer {
  let secret = config.SETTINGS_SECRET_KEY;
  if (!secret) {
    const file = join(config.DATA_DIR, 'settings-secret.key');
    if (!existsSync(file)) {
      mkdirSync(config.DATA_DIR, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    }
    secret = readFileSync(file, 'utf8').trim();
  }
  return createHash('sha256').update(secret).digest();
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url; a changed byte fails to decrypt. */
export function encryptSetting(config: KeyConfig, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', settingsKey(config), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), data].map((p) => p.toString('base64url'));
  return ['v1', ...parts].join('.');
}

export function decryptSetting(config: KeyConfig, stored: string): string {
  const [v, iv, tag, data] = stored.split('.');
  if (v !== 'v1' || !iv || !tag || data === undefined) {
    throw new Error('not an encrypted setting');
  }
  const decipher = createDecipheriv(
    'aes-256-gcm',
    settingsKey(config),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  return plain.toString('utf8');
}
