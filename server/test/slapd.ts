import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './server-process.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';

const SLAPD = '/usr/sbin/slapd';
export const SUFFIX = 'dc=carryover,dc=test';
const ROOT = { dn: `cn=admin,${SUFFIX}`, password: 'root-secret-of-the-test' };

/** The read-only service account the product binds as (not the rootdn). */
export const SERVICE = { dn: `cn=reader,${SUFFIX}`, password: 'reader-secret-of-the-test' };

export interface DirectoryPerson {
  uid: string;
  givenName: string;
  sn: string;
  mail: string;
  password: string;
}

export interface Slapd {
  url: string;
  peopleDn: string;
  groupsDn: string;
  dnOf(uid: string): string;
  addPerson(person: DirectoryPerson, groups?: string[]): Promise<string>;
  close(): Promise<void>;
}

function config(dir: string): string {
  return [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map(
      (s) => `include /etc/ldap/schema/${s}.schema`,
    ),
    `pidfile ${dir}/slapd.pid`,
    `argsfile ${dir}/slapd.args`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'database mdb',
    'maxsize 10485760',
    `suffix "${SUFFIX}"`,
    `rootdn "${ROOT.dn}"`,
    `rootpw ${ROOT.password}`,
    `directory ${dir}/db`,
    // Users may bind with their password; only the service account and the root read the rest.
    'access to attrs=userPassword by anonymous auth by * none',
    `access to * by dn.exact="${SERVICE.dn}" read by self read by anonymous auth by * none`,
    '',
  ].join('\n');
}

async function bound(url: string, deadline: number, child: ChildProcess): Promise<Client> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd exited with code ${child.exitCode}`);
    const client = new Client({ url, connectTimeout: 1000, timeout: 5000 });
    try {
      await client.bind(ROOT.dn, ROOT.password);
      return client;
    } catch (error) {
      await client.unbind().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error(`slapd did not answer at ${url}`, { cause: error });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A real OpenLDAP server for one test file: its own slapd.conf and database in a temporary
 * directory, started as a child process on a free port of 127.0.0.1, seeded with the tree, the
 * service account and the groups `qc` and `production`. A missing slapd fails the tests.
 */
export async function startSlapd(): Promise<Slapd> {
  if (!existsSync(SLAPD)) {
    throw new Error(
      `${SLAPD} is missing: the Active Directory tests need a real LDAP server. Install it with ` +
        '`apt-get install slapd ldap-utils` (Debian; .ci/run does this when it is missing).',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'carryover-slapd-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'slapd.conf'), config(dir));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const child = spawn(SLAPD, ['-f', join(dir, 'slapd.conf'), '-h', url, '-d', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  let root: Client;
  try {
    root = await bound(url, Date.now() + 15_000, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error });
  }
  const peopleDn = `ou=people,${SUFFIX}`;
  const groupsDn = `ou=groups,${SUFFIX}`;
  const dnOf = (uid: string) => `uid=${uid},${peopleDn}`;
  await root.add(SUFFIX, { objectClass: ['dcObject', 'organization'], dc: 'carryover', o: 'Test' });
  await root.add(peopleDn, { objectClass: 'organizationalUnit', ou: 'people' });
  await root.add(groupsDn, { objectClass: 'organizationalUnit', ou: 'groups' });
  await root.add(SERVICE.dn, {
    objectClass: ['organizationalRole', 'simpleSecurityObject'],
    cn: 'reader',
    userPassword: SERVICE.password,
  });
  const members = new Map<string, string[]>([
    ['qc', []],
    ['production', []],
  ]);
  const writeGroups = async () => {
    for (const [cn, list] of members) {
      const dn = `cn=${cn},${groupsDn}`;
      await root.del(dn).catch(() => undefined);
      // groupOfNames needs at least one member: the service account stands in for none.
      await root.add(dn, {
        objectClass: 'groupOfNames',
        cn,
        member: list.length ? list : SERVICE.dn,
      });
    }
  };
  await writeGroups();
  return {
    url,
    peopleDn,
    groupsDn,
    dnOf,
    async addPerson(person, groups = []) {
      const dn = dnOf(person.uid);
      await root.add(dn, {
        objectClass: ['inetOrgPerson'],
        uid: person.uid,
        cn: `${person.givenName} ${person.sn}`,
        givenName: person.givenName,
        sn: person.sn,
        mail: person.mail,
        userPassword: person.password,
      });
      for (const group of groups) members.get(group)?.push(dn);
      if (groups.length) await writeGroups();
      return dn;
    },
    async close() {
      await root.unbind().catch(() => undefined);
      await stop();
    },
  };
}
