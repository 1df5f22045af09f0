import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicUrl } from './config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 3000,
      DATA_DIR: './data',
      DATA_DIR_LOCK_STALE_SECONDS: 30,
      SESSION_IDLE_MINUTES: 30,
      SESSION_MAX_HOURS: 12,
      API_RATE_LIMIT_MAX: 1200,
      API_RATE_LIMIT_WINDOW_SECONDS: 60,
      AUDIT_ANCHOR_INTERVAL_SECONDS: 60,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        ADMIN_EMAIL: 'not-mail',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(problems).toContain('ADMIN_EMAIL');
    expect(problems).toContain('LOG_LEVEL');
  });

  it('needs the app role of DATABASE_URL with DATABASE_OWNER_URL, and a long anchor key', () => {
    expect(() => loadConfig({ DATABASE_OWNER_URL: 'postgres://owner@db/carryover' })).toThrow(
      'DATABASE_URL: is required with DATABASE_OWNER_URL',
    );
    expect(() => loadConfig({ AUDIT_ANCHOR_KEY: 'short' })).toThrow('AUDIT_ANCHOR_KEY');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', ADMIN_EMAIL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('keeps metrics off unless METRICS_PORT is set, and never on the app port', () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow('METRICS_PORT');
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT');
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      'METRICS_PORT: must differ from PORT',
    );
    expect(() => loadConfig({ METRICS_HOST: '10.0.0.5' })).toThrow(
      'METRICS_PORT: is required with METRICS_HOST',
    );
  });

  it('builds mail links from PUBLIC_URL, else from its own HOST and PORT', () => {
    expect(publicUrl(loadConfig({ PUBLIC_URL: 'https://carryover.example.com/' }))).toBe(
      'https://carryover.example.com',
    );
    expect(publicUrl(loadConfig({}))).toBe('http://127.0.0.1:3000');
    expect(publicUrl(loadConfig({ HOST: '::1', PORT: '8080' }))).toBe('http://[::1]:8080');
  });
});
