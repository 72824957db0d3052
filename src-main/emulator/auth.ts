// Nadeo's login (docs/nadeo-api.md "Authentication"): Basic login gives a JWT pair; every other call sends nadeo_v1 t=<access>.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { API_ERROR, apiError, json, validationError, type Answer } from './answers.ts';
import { uuidFromName } from './prng.ts';

export interface AuthOptions {
  login: string;
  password: string;
  /**
   * The account the login belongs to (the token's subject); by default one derived from the login. A record of this
   * account is never hidden from it by a secret threshold (docs/nadeo-api.md: "except your own").
   */
  accountId?: string;
  accessTtlSec?: number;
  refreshTtlSec?: number;
  refreshAllowedAfterSec?: number;
}

/** Which service a token opens (docs/nadeo-api.md): Core ('NadeoServices') or Live ('NadeoLiveServices'). */
export type Audience = 'NadeoServices' | 'NadeoLiveServices';
const AUDIENCES: readonly string[] = ['NadeoServices', 'NadeoLiveServices'] satisfies Audience[];

interface Session {
  kind: 'access' | 'refresh';
  audience: Audience;
  expiresAtMs: number;
  refreshAllowedAtMs: number;
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/**
 * Issues and checks tokens. Without options it is open: any login succeeds and every call is let through, so a
 * client configured with credentials still works against an emulator started without `auth`.
 */
export class NadeoAuth {
  readonly required: boolean;
  readonly #options: AuthOptions | undefined;
  readonly #accessTtlMs: number;
  readonly #refreshTtlMs: number;
  readonly #refreshAllowedAfterMs: number;
  // A fresh secret per emulator: tokens of another run or another emulator never pass.
  readonly #secret = randomBytes(32);
  readonly #sessions = new Map<string, Session>();
  readonly #now: () => number;

  constructor(options: AuthOptions | undefined, now: () => number = Date.now) {
    this.#options = options;
    this.required = options !== undefined;
    this.#now = now;
    const accessTtlSec = options?.accessTtlSec ?? 3600;
    this.#accessTtlMs = accessTtlSec * 1000;
    this.#refreshTtlMs = (options?.refreshTtlSec ?? 86400) * 1000;
    // Default 1800 s, but never later than half the access lifetime, so short test lifetimes can still refresh.
    this.#refreshAllowedAfterMs = (options?.refreshAllowedAfterSec ?? Math.min(1800, accessTtlSec / 2)) * 1000;
  }

  /** POST /v2/authentication/token/basic; no body (or no audience) gives a NadeoServices token. */
  login(authorization: string | undefined, body: string): Answer {
    let audience: unknown = 'NadeoServices';
    if (body.trim() !== '') {
      try {
        audience = (JSON.parse(body) as { audience?: unknown } | null)?.audience ?? 'NadeoServices';
      } catch {
        return validationError({ body: 'The body must be JSON like {"audience":"NadeoServices"}.' });
      }
    }
    if (typeof audience !== 'string' || !AUDIENCES.includes(audience)) {
      return validationError({ audience: 'The audience must be NadeoServices or NadeoLiveServices.' });
    }
    const match = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) return this.#refuse('Invalid credentials.');
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (this.#options) {
      if (login !== this.#options.login) return this.#refuse('Username could not be found.');
      if (!sameText(password, this.#options.password)) return this.#refuse('Invalid credentials.');
    }
    return json(200, this.#issuePair(login, audience as Audience));
  }

  /** POST /v2/authentication/token/refresh with the refresh token: a new pair for the same audience. */
  refresh(authorization: string | undefined): Answer {
    const claims = this.#verify(authorization, 'refresh');
    if (typeof claims === 'string') return this.#refuse(claims);
    if (this.#now() < claims.session.refreshAllowedAtMs) return this.#refuse('Refresh is not allowed yet.');
    return json(200, this.#issuePair(claims.login, claims.session.audience));
  }

  /**
   * The 401 to send, or the account the access token acts for (no account when the emulator is open): one check of
   * the token per call.
   */
  checkAccess(authorization: string | undefined, audience: Audience = 'NadeoServices'): { refused: Answer } | { caller: string | undefined } {
    if (!this.required) return { caller: undefined };
    const claims = this.#verify(authorization, 'access');
    if (typeof claims === 'string') return { refused: this.#refuse(claims) };
    // A token opens one service only: Core routes need NadeoServices, Live routes NadeoLiveServices.
    if (claims.session.audience !== audience) return { refused: this.#refuse(`This token is for ${claims.session.audience}; this route needs a ${audience} token.`) };
    return { caller: this.#accountOf(claims.login) };
  }

  #accountOf(login: string): string {
    return this.#options?.accountId?.toLowerCase() ?? uuidFromName(`account|${login}`);
  }

  #refuse(message: string): Answer {
    const answer = apiError(401, { code: API_ERROR.unauthorized.code, message });
    answer.headers = { 'WWW-Authenticate': 'nadeo_v1' };
    return answer;
  }

  #issuePair(login: string, audience: Audience): { accessToken: string; refreshToken: string } {
    const now = this.#now();
    const sessionId = randomUUID();
    const refreshAllowedAtMs = now + this.#refreshAllowedAfterMs;
    const sub = this.#accountOf(login);
    const make = (kind: Session['kind'], ttlMs: number): string => {
      const jti = randomUUID();
      const expiresAtMs = now + ttlMs;
      this.#sessions.set(jti, { kind, audience, expiresAtMs, refreshAllowedAtMs });
      // Claims in whole seconds like the real ones; the server keeps the exact instants, so fractions of a second work.
      const payload = {
        jti,
        iss: 'NadeoServices',
        iat: Math.floor(now / 1000),
        rat: Math.ceil(refreshAllowedAtMs / 1000),
        exp: Math.ceil(expiresAtMs / 1000),
        aud: audience,
        usg: 'Server',
        sid: sessionId,
        sub,
        aun: login,
        rtk: kind === 'refresh',
      };
      const unsigned = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
      return `${unsigned}.${base64url(createHmac('sha256', this.#secret).update(unsigned).digest())}`;
    };
    this.#forgetExpired(now);
    return { accessToken: make('access', this.#accessTtlMs), refreshToken: make('refresh', this.#refreshTtlMs) };
  }

  #forgetExpired(now: number): void {
    if (this.#sessions.size < 1000) return;
    for (const [jti, session] of this.#sessions) if (session.expiresAtMs <= now) this.#sessions.delete(jti);
  }

  /** The token's session and login, or why it is refused. */
  #verify(authorization: string | undefined, kind: Session['kind']): { session: Session; login: string } | string {
    const match = /^nadeo_v1\s+t=(\S+)$/.exec(authorization ?? '');
    if (!match?.[1]) return 'Missing or malformed Authorization header; expected nadeo_v1 t=<token>.';
    const [header, payload, signature] = match[1].split('.');
    if (header === undefined || payload === undefined || signature === undefined) return 'Invalid token.';
    const expected = createHmac('sha256', this.#secret).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'Invalid token.';
    let claims: { jti?: unknown; aun?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return 'Invalid token.';
    }
    const session = typeof claims.jti === 'string' ? this.#sessions.get(claims.jti) : undefined;
    if (!session || session.kind !== kind) return kind === 'access' ? 'Not an access token.' : 'Not a refresh token.';
    if (this.#now() >= session.expiresAtMs) return 'Token expired.';
    return { session, login: typeof claims.aun === 'string' ? claims.aun : '' };
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
