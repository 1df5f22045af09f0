import * as oidc from 'openid-client';
import { AppError } from '#core/errors/errors.ts';
import type { TSsoSettings, TUpdateSsoSettingsRequest } from '#core/schemas/auth.schemas.ts';
import type { Config } from '#server/config.ts';
import { planSettingsDecl } from '#core/entities/defs/settings.def.ts';
import { openPlanRecord, writePlanRecord } from '#server/records/plan-record.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { auditSignInRefusal, openSession } from '../auth/auth.service.ts';
import { defaultPlanId } from '../auth/policy.ts';
import { hashToken } from '#server/util/secrets.ts';
import { decryptSetting, encryptSetting } from '#server/util/setting-secrets.ts';
import { identifyAccount } from './sso-identity.ts';
import { issueSigningProof, SIGNING_MAX_AGE_SECONDS } from './sso-signing.ts';

type Provider = 'azure' | 'okta';

interface SsoJson {
  enabled: boolean;
  provider: Provider;
  issuer: string;
  clientId: string;
  logoutUrl: string | null;
}

interface SsoRow {
  sso: SsoJson | null;
  sso_client_secret: string | null;
  version: number;
}

/** How long a redirect to the provider may take before its state is refused. */
const PENDING_MINUTES = 10;

async function ssoRow(q: Queryable, planId: number): Promise<SsoRow> {
  const [row] = await q.query<SsoRow>(
    `select sso, sso_client_secret, version from plan_settings where plan_id = $1`,
    [planId],
  );
  return row ?? { sso: null, sso_client_secret: null, version: 1 };
}

function toSettings(row: SsoRow): TSsoSettings {
  return {
    enabled: row.sso?.enabled ?? false,
    provider: row.sso?.provider ?? null,
    issuer: row.sso?.issuer ?? null,
    clientId: row.sso?.clientId ?? null,
    hasClientSecret: Boolean(row.sso_client_secret),
    logoutUrl: row.sso?.logoutUrl ?? null,
    version: row.version,
  };
}

export async function getSsoSettings(db: Db, planId: number): Promise<TSsoSettings> {
  return toSettings(await ssoRow(db, planId));
}

/** Changes the plan's SSO settings; the secret is encrypted, and audited only as "changed". */
export async function updateSsoSettings(
  db: Db,
  config: Config,
  actor: Actor,
  planId: number,
  request: TUpdateSsoSettingsRequest,
): Promise<TSsoSettings> {
  return db.transaction(async (tx) => {
    const row = await openPlanRecord<SsoRow>(tx, planSettingsDecl, planId, request.version);
    const next: SsoJson = {
      enabled: request.enabled,
      provider: request.provider,
      issuer: request.issuer,
      clientId: request.clientId,
      logoutUrl: request.logoutUrl,
    };
    const secret = request.clientSecret
      ? encryptSetting(config, request.clientSecret)
      : row.sso_client_secret;
    const before = { ...toSettings(row), version: undefined };
    const diff = changedFields(
      { ...before, clientSecretChanged: false },
      {
        ...toSettings({ sso: next, sso_client_secret: secret, version: row.version }),
        version: undefined,
        clientSecretChanged: Boolean(request.clientSecret),
      },
    );
    const updated = await writePlanRecord(
      tx,
      { ...planSettingsDecl, domain: 'SsoSettings' },
      {
        actor,
        planId,
        row,
        set: { sso: JSON.stringify(next), sso_client_secret: secret },
        audit: { action: 'Update', reason: request.reason, ...diff },
      },
    );
    configurations.clear();
    return toSettings({ sso: next, sso_client_secret: secret, version: updated.version as number });
  });
}

/** The flags of GET /api/v2/features, from the plan of this installation. */
export async function ssoFeatures(db: Db) {
  const planId = await defaultPlanId(db);
  const row = planId === null ? null : await ssoRow(db, planId);
  const on = Boolean(row?.sso?.enabled);
  return {
    SSO: on,
    SSOProvider: on ? (row?.sso?.provider ?? null) : null,
    logoutUrl: on ? (row?.sso?.logoutUrl ?? null) : null,
  };
}

/** Plain http is allowed only to a provider on this machine (the test provider). */
function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const configurations = new Map<string, Promise<oidc.Configuration>>();

async function providerConfig(
  config: Config,
  sso: SsoJson,
  encryptedSecret: string | null,
): Promise<oidc.Configuration> {
  const key = `${sso.issuer}\n${sso.clientId}\n${encryptedSecret ?? ''}`;
  let found = configurations.get(key);
  if (!found) {
    const issuer = new URL(sso.issuer);
    const secret = encryptedSecret ? decryptSetting(config, encryptedSecret) : undefined;
    found = oidc.discovery(issuer, sso.clientId, secret, undefined, {
      // The ID token's signature is checked against the provider's keys even though it came
      // straight from the token endpoint (openid-client skips that by default).
      execute: [
        oidc.enableNonRepudiationChecks,
        ...(isLoopback(issuer) ? [oidc.allowInsecureRequests] : []),
      ],
    });
    found.catch(() => configurations.delete(key));
    configurations.set(key, found);
  }
  return found;
}

/** The provider single sign-on is on with, or 404 when it is off. */
export async function enabledProvider(db: Db): Promise<Provider> {
  const { SSOProvider } = await ssoFeatures(db);
  if (!SSOProvider) throw new AppError('NotFoundError', 'Single sign-on is not configured');
  return SSOProvider;
}

/** The plan's SSO settings for this provider, or 404 when SSO is off or set for another one. */
async function enabledFor(db: Db, provider: Provider) {
  const planId = await defaultPlanId(db);
  const row = planId === null ? null : await ssoRow(db, planId);
  if (planId === null || !row?.sso?.enabled || row.sso.provider !== provider) {
    throw new AppError('NotFoundError', `Single sign-on with ${provider} is not configured`);
  }
  return { planId, sso: row.sso, secret: row.sso_client_secret };
}

/**
 * Starts a sign-in: keeps state (as a hash), nonce and PKCE verifier on the server for ten
 * minutes and returns the provider's authorization URL.
 */
export async function ssoLoginUrl(
  db: Db,
  config: Config,
  provider: Provider,
  redirectUri: string,
  loginHint: string | undefined,
  signer?: { userId: number },
): Promise<string> {
  const { planId, sso, secret } = await enabledFor(db, provider);
  const configuration = await providerConfig(config, sso, secret);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  await db.query(`delete from sso_logins where expires_at < now() - interval '1 day'`);
  await db.query(
    `insert into sso_logins (state_hash, plan_id, provider, nonce, code_verifier, redirect_uri,
                             login_hint, expires_at, purpose, user_id)
     values ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(mins => $8), $9, $10)`,
    [
      hashToken(state),
      planId,
      provider,
      nonce,
      verifier,
      redirectUri,
      loginHint ?? null,
      PENDING_MINUTES,
      signer ? 'signature' : 'login',
      signer?.userId ?? null,
    ],
  );
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  };
  if (loginHint) params.login_hint = loginHint;
  // A signature needs a fresh authentication, not the provider's remembered session.
  if (signer) Object.assign(params, { prompt: 'login', max_age: '0' });
  return oidc.buildAuthorizationUrl(configuration, params).href;
}

export type SsoPurpose = 'login' | 'signature';

/** A refusal of the callback: its message goes back to the login screen (or signature) in `error`. */
export class SsoRefusal extends Error {
  constructor(
    message: string,
    readonly purpose: SsoPurpose = 'login',
  ) {
    super(message);
  }
}

const NOT_A_USER = 'Your account is not registered for single sign-on. Contact your administrator.';

/**
 * The callback: spends the state, exchanges the code (PKCE), and checks the ID token's
 * signature, issuer, audience, expiry and nonce (openid-client); then signs in the active SSO
 * user of this plan the token's identity is linked to, or whose e-mail the provider verified
 * (sso-identity.ts).
 */
export async function ssoVerify(
  db: Db,
  config: Config,
  actor: Actor,
  provider: Provider,
  callbackUrl: URL,
): Promise<{ token: string } | { signingProof: string }> {
  const state = callbackUrl.searchParams.get('state');
  let purpose: SsoPurpose = 'login';
  const refuse = async (reason: string, message: string, planId: number | null = null) => {
    await auditSignInRefusal(db, actor, planId, 'SsoLoginFailed', { provider, purpose, reason });
    return new SsoRefusal(message, purpose);
  };
  if (!state) throw await refuse('no state', 'The sign-in could not be completed. Try again.');
  const [pending] = await db.query<{
    plan_id: number;
    nonce: string;
    code_verifier: string;
    purpose: SsoPurpose;
    user_id: number | null;
  }>(
    `update sso_logins set used_at = now()
      where state_hash = $1 and provider = $2 and used_at is null and expires_at > now()
      returning plan_id, nonce, code_verifier, purpose, user_id`,
    [hashToken(state), provider],
  );
  if (!pending) {
    throw await refuse('unknown, used or expired state', 'The sign-in expired. Try again.');
  }
  purpose = pending.purpose;
  const { planId, sso, secret } = await enabledFor(db, provider);
  if (planId !== pending.plan_id) throw await refuse('plan changed', 'The sign-in expired.');
  const providerError = callbackUrl.searchParams.get('error');
  if (providerError) {
    throw await refuse(`provider: ${providerError}`, 'The provider refused the sign-in.', planId);
  }
  const configuration = await providerConfig(config, sso, secret);
  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: pending.code_verifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
      // A signature's authentication must be fresh: auth_time present and recent.
      ...(pending.purpose === 'signature' ? { maxAge: SIGNING_MAX_AGE_SECONDS } : {}),
    });
    const found = tokens.claims();
    if (!found) throw new Error('no ID token');
    claims = found;
  } catch (error) {
    throw await refuse(
      `token refused: ${(error as Error).message}`.slice(0, 300),
      'The sign-in could not be verified.',
      planId,
    );
  }
  const identified = await identifyAccount(db, actor, planId, claims);
  if ('refused' in identified) throw await refuse(identified.refused, NOT_A_USER, planId);
  const { user } = identified;
  if (user.auth_type !== 'sso') {
    throw await refuse(`${claims.sub} is linked to a ${user.auth_type} user`, NOT_A_USER, planId);
  }
  const who = { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` };
  if (pending.purpose === 'signature') {
    if (user.id !== pending.user_id) {
      throw await refuse(
        `signer mismatch: ${claims.sub}`,
        'You signed in at the provider as someone else. Sign in as yourself to sign.',
        planId,
      );
    }
    const signingProof = await issueSigningProof(db, who, planId, claims);
    if (!signingProof) {
      throw await refuse(
        `stale auth_time ${String(claims.auth_time)}`,
        'The provider did not confirm a fresh sign-in. Sign in again to sign.',
        planId,
      );
    }
    return { signingProof };
  }
  if (user.is_blocked) {
    await auditSignInRefusal(db, who, planId, 'SsoLoginFailed', { provider, reason: 'blocked' });
    throw new SsoRefusal('Your account is blocked. Contact your administrator.', purpose);
  }
  const session = await openSession(db, who, user.id, planId, 'SsoLogin', {
    provider,
    subject: claims.sub,
    issuer: claims.iss,
  });
  return { token: session.token };
}
