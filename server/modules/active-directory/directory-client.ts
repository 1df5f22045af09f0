import {
  AndFilter,
  Client,
  EqualityFilter,
  InvalidCredentialsError,
  OrFilter,
  SubstringFilter,
  type Entry,
  type Filter,
} from 'ldapts';
import type { TGroupRole } from '#core/schemas/active-directory.schemas.ts';

/** The plan's directory with its bind password decrypted, only ever held in memory. */
export interface Directory {
  url: string;
  baseDn: string;
  bindDn: string;
  bindPassword: string;
  userSearchAttributes: string[];
  useTls: boolean;
  groupRoles: TGroupRole[];
}

/** The directory could not be reached or refused the service account: not the user's fault. */
export class DirectoryUnavailable extends Error {}

const TIMEOUT_MS = 10_000;
const USER_ATTRIBUTES = ['givenName', 'sn', 'cn', 'mail', 'memberOf'];

export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return ['127.0.0.1', 'localhost', '[::1]'].includes(host);
}

async function connect(directory: Pick<Directory, 'url' | 'useTls'>): Promise<Client> {
  const client = new Client({
    url: directory.url,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
  });
  if (directory.useTls && directory.url.startsWith('ldap://')) await client.startTLS();
  return client;
}

/** Runs `work` on a connection bound as the service account, and always closes it. */
export async function asServiceAccount<T>(
  directory: Directory,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  let client: Client | undefined;
  try {
    client = await connect(directory);
    await client.bind(directory.bindDn, directory.bindPassword);
  } catch (error) {
    await client?.unbind().catch(() => undefined);
    throw new DirectoryUnavailable(`The directory refused the service account: ${message(error)}`);
  }
  try {
    return await work(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The filter is built as objects and sent BER-encoded, so a value such as `*)(uid=*` is matched
 * literally and can never widen the search (RFC 4515 injection).
 */
function accountFilter(attributes: readonly string[], value: string): Filter {
  return new OrFilter({
    filters: attributes.map((attribute) => new EqualityFilter({ attribute, value })),
  });
}

const PERSON = new OrFilter({
  filters: ['person', 'inetOrgPerson', 'user'].map(
    (value) => new EqualityFilter({ attribute: 'objectClass', value }),
  ),
});

/** The one entry whose search attribute is `username`; none, or more than one, is no match. */
export async function findAccount(
  client: Client,
  directory: Directory,
  username: string,
): Promise<Entry | null> {
  const { searchEntries } = await client.search(directory.baseDn, {
    scope: 'sub',
    filter: new AndFilter({
      filters: [PERSON, accountFilter(directory.userSearchAttributes, username)],
    }),
    attributes: [...directory.userSearchAttributes, ...USER_ATTRIBUTES],
    sizeLimit: 2,
  });
  return searchEntries.length === 1 ? searchEntries[0]! : null;
}

export async function findAccountByDn(
  client: Client,
  directory: Directory,
  dn: string,
): Promise<Entry | null> {
  try {
    const { searchEntries } = await client.search(dn, {
      scope: 'base',
      filter: PERSON,
      attributes: [...directory.userSearchAttributes, ...USER_ATTRIBUTES],
    });
    return searchEntries[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * Binds as `dn` with `password` on a connection of its own. Callers refuse an empty password
 * before this: many servers take an empty password as an anonymous bind and answer success.
 */
export async function passwordIsRight(
  directory: Directory,
  dn: string,
  password: string,
): Promise<boolean> {
  if (password === '') return false;
  let client: Client | undefined;
  try {
    client = await connect(directory);
    await client.bind(dn, password);
    return true;
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return false;
    throw new DirectoryUnavailable(`The directory could not check the password: ${message(error)}`);
  } finally {
    await client?.unbind().catch(() => undefined);
  }
}

/** Accounts whose `fields` contain `query`, at most `limit`. */
export async function searchAccounts(
  client: Client,
  directory: Directory,
  query: string,
  fields: readonly string[],
  limit = 50,
): Promise<Entry[]> {
  const { searchEntries } = await client
    .search(directory.baseDn, {
      scope: 'sub',
      filter: new AndFilter({
        filters: [
          PERSON,
          new OrFilter({
            filters: fields.map((attribute) => new SubstringFilter({ attribute, any: [query] })),
          }),
        ],
      }),
      attributes: [...directory.userSearchAttributes, ...USER_ATTRIBUTES],
      sizeLimit: limit,
    })
    .catch((error: unknown) => {
      // A server stops at the size limit with an error but has sent the entries before it.
      if (error instanceof Error && error.name === 'SizeLimitExceededError') {
        return { searchEntries: [] as Entry[] };
      }
      throw error;
    });
  return searchEntries;
}

/** The DNs of the groups an account is in: AD's memberOf, or groups naming it as a member. */
export async function groupsOf(client: Client, directory: Directory, entry: Entry) {
  const groups = new Set(values(entry.memberOf));
  const { searchEntries } = await client.search(directory.baseDn, {
    scope: 'sub',
    filter: new OrFilter({
      filters: ['member', 'uniqueMember'].map(
        (attribute) => new EqualityFilter({ attribute, value: entry.dn }),
      ),
    }),
    attributes: ['cn'],
  });
  for (const group of searchEntries) groups.add(group.dn);
  return [...groups].sort();
}

export function values(value: Entry[string] | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
}

export function first(entry: Entry, attribute: string): string | null {
  return values(entry[attribute])[0] ?? null;
}

/** A group of the mapping names a group by its DN, or by its cn (the DN's first value). */
export function groupMatches(mapped: string, groupDn: string): boolean {
  const wanted = mapped.trim().toLowerCase();
  const dn = groupDn.toLowerCase();
  const cn = /^cn=((?:\\.|[^,])*)/i.exec(groupDn)?.[1]?.toLowerCase();
  return wanted === dn || wanted === cn;
}
