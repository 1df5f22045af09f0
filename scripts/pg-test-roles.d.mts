import type { Client } from 'pg';

/** The roles of a test run on a PostgreSQL server (pg-test-roles.mjs). */
export interface TestRoleNames {
  owner: string;
  app: string;
}

export function createTestRoles(
  superUrl: string,
  names: TestRoleNames & { database: string },
): Promise<{ DATABASE_OWNER_URL: string; DATABASE_URL: string; DATABASE_SUPERUSER_URL: string }>;

export function dropTestRoles(superUrl: string, names: TestRoleNames): Promise<void>;

export function leftRoles(superUrl: string, prefix: string): Promise<TestRoleNames[]>;

export function hostPrefix(kind: string): string;

/** Runs `work` with a superuser's connection to `database` ('postgres' unless given). */
export function asSuperuser<T>(
  superUrl: string,
  work: (client: Client) => Promise<T>,
  database?: string,
): Promise<T>;
