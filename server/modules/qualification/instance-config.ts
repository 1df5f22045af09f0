import type { Config } from '#server/config.ts';

/*
 * The configuration the instance was built with, for the qualification report's job, which runs
 * outside any request. Set once when the routes are registered; it never changes after start.
 */
let current: Config | null = null;

export function useInstanceConfig(config: Config): void {
  current = config;
}

export function instanceConfig(): Config {
  if (!current) throw new Error('the qualification routes are not registered');
  return current;
}
