import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * The claims of the account a login name names (its subject is the login name): the name is a
 * verified e-mail; 'unverified:<e-mail>' gives the e-mail unverified, 'username:<name>' only a
 * preferred_username, and '<anything>|<e-mail>' a verified e-mail under another subject.
 */
function accountClaims(login: string): Record<string, unknown> {
  const [prefix, rest] = login.split(/:(.*)/s);
  if (prefix === 'unverified' && rest) return { sub: login, email: rest, email_verified: false };
  if (prefix === 'username' && rest) return { sub: login, preferred_username: rest };
  return { sub: login, email: login.split('|').pop(), email_verified: true };
}

export interface RealProvider {
  issuer: string;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1: any login name is an account (see
 * accountClaims); its development interactions (login form, consent) are driven over HTTP.
 */
export async function startRealProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}): Promise<RealProvider> {
  const server = createServer();
  const issuer = await listen(server);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username'],
    },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => accountClaims(id) }),
    pkce: { required: () => true },
    // Claims in the ID token itself, as Azure and Okta put email / preferred_username there.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', provider.callback());
  return { issuer, close: () => close(server) };
}

export interface ForgingProvider {
  issuer: string;
  /** The ID token its token endpoint returns next. */
  nextIdToken: string | null;
  /** Signs claims with its published key (or with `key`, a key it does not publish). */
  idToken(claims: Record<string, unknown>, options?: { key?: KeyObject; alg?: 'none' }): string;
  close(): Promise<void>;
}

/** A provider whose token endpoint answers with whatever ID token the test forged. */
export async function startForgingProvider(): Promise<ForgingProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const server = createServer();
  const issuer = await listen(server);
  const forging: ForgingProvider = {
    issuer,
    nextIdToken: null,
    idToken(claims, options = {}) {
      const header = { alg: options.alg ?? 'RS256', typ: 'JWT', kid };
      const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const input = `${part(header)}.${part(claims)}`;
      if (options.alg === 'none') return `${input}.`;
      const signature = sign('sha256', Buffer.from(input), options.key ?? privateKey);
      return `${input}.${signature.toString('base64url')}`;
    },
    close: () => close(server),
  };
  server.on('request', (req, res) => {
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path === '/.well-known/openid-configuration') {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (path === '/jwks') {
      return json({
        keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
      });
    }
    if (path === '/token' && req.method === 'POST') {
      req.resume();
      req.on('end', () =>
        json({ access_token: 'at', token_type: 'Bearer', id_token: forging.nextIdToken }),
      );
      return undefined;
    }
    res.writeHead(404).end();
    return undefined;
  });
  return forging;
}

/** A minimal cookie jar for one browser talking to the provider. */
class ProviderBrowser {
  cookies = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

/**
 * Follows redirects by hand from `startUrl`, signing in as `login` at the provider's login and
 * consent forms, until the browser is sent to a page of the app at `appUrl`.
 */
export async function signInThroughProvider(
  appUrl: string,
  startUrl: string,
  login: string,
): Promise<URL> {
  const browser = new ProviderBrowser();
  let url = startUrl;
  for (let step = 0; step < 20; step += 1) {
    if (url.startsWith(appUrl) && !url.includes('/api/v2/auth/sso/')) return new URL(url);
    const res = await browser.fetch(url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    if (res.status !== 200) throw new Error(`${res.status} at ${url}`);
    const html = await res.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!prompt || !action) throw new Error(`unexpected page at ${url}`);
    const posted = await browser.fetch(new URL(action, url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt, login, password: 'any' }).toString(),
    });
    if (posted.status < 300) throw new Error(`${posted.status} after the form at ${url}`);
    url = new URL(posted.headers.get('location')!, url).href;
  }
  throw new Error('too many redirects');
}
