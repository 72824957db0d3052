// Nadeo login (service account or dedicated-server account, docs/nadeo-api.md "Authentication"): log in once, refresh
// ahead of expiry once the token's `rat` allows, log in again when the refresh token has expired. Concurrent
// callers share one login or refresh (single flight); one caller giving up does not cancel it for the others.
import { jsonHandler } from '../http/answers.ts';
import { AuthError, HttpError } from '../http/errors.ts';
import { decodeJwtPayload, readJwtTimes } from '../http/jwt.ts';
import { parseBody } from '../http/parse.ts';
import type { Pipeline, TokenSource } from '../http/pipeline.ts';
import { raceSignal } from '../http/signals.ts';
import { TokenPairWire } from './schemas.ts';

export interface Credentials {
  login: string;
  password: string;
}

interface Tokens {
  access: string;
  refresh: string | undefined;
  obtainedAt: number;
  accessExp: number;
  refreshAllowedAt: number;
  refreshExp: number;
}

/** The login body's audience: one login (same credentials) gives a token for one service. */
export type NadeoAudience = 'NadeoServices' | 'NadeoLiveServices';

export const LOGIN_ROUTE = 'POST /v2/authentication/token/basic';
export const REFRESH_ROUTE = 'POST /v2/authentication/token/refresh';

// When a token says nothing about its lifetime, assume the documented ones (docs/nadeo-api.md): 1 h, refresh after 30 min, 24 h.
const DEFAULT_ACCESS_MS = 55 * 60_000;
const DEFAULT_RAT_MS = 30 * 60_000;
const DEFAULT_REFRESH_MS = 23 * 3600_000;

/** An account ID as Nadeo spells it (a UUID). */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface NadeoAuthOptions {
  origin: string;
  /** Base path of the API (usually ''). */
  basePath: string;
  credentials: Credentials;
  /** Which service the tokens open (docs/nadeo-api.md): 'NadeoServices' (Core, the default) or 'NadeoLiveServices' (Live). */
  audience?: NadeoAudience | undefined;
  pipeline: () => Pipeline;
  /** Wall clock, ms. */
  now: () => number;
  lifetime: AbortSignal;
}

export class NadeoAuth implements TokenSource {
  readonly origin: string;
  readonly #o: NadeoAuthOptions;
  #tokens: Tokens | undefined;
  #inflight: Promise<Tokens> | undefined;
  /** How many logins and refreshes were made, for tests and diagnostics. */
  readonly counts = { logins: 0, refreshes: 0 };

  constructor(options: NadeoAuthOptions) {
    this.#o = options;
    this.origin = options.origin;
  }

  async authorization(signal: AbortSignal): Promise<{ header: string; token: string }> {
    let tokens = this.#tokens;
    if (!tokens || this.#o.now() >= this.#renewDue(tokens)) tokens = await raceSignal(this.#renew(false), signal);
    return { header: `nadeo_v1 t=${tokens.access}`, token: tokens.access };
  }

  async renewAfterRejection(token: string, signal: AbortSignal): Promise<void> {
    // Someone else already renewed since this token was sent: use theirs.
    if (this.#tokens && this.#tokens.access !== token) return;
    await raceSignal(this.#renew(true), signal);
  }

  /** Logs in from scratch (settings check); throws AuthError on a wrong login or password. */
  async login(signal: AbortSignal): Promise<void> {
    this.#tokens = undefined;
    await raceSignal(this.#renew(false), signal);
  }

  /**
   * The account the current access token acts for (its `sub` claim, an account ID): the service never hides that
   * account's own records (docs/game-rules.md "Secret entries"). Undefined before the first login, or when the
   * token names no account ID. Only the claim is read; the token itself goes nowhere.
   */
  account(): string | undefined {
    const access = this.#tokens?.access;
    const sub = access === undefined ? undefined : decodeJwtPayload(access)?.['sub'];
    return typeof sub === 'string' && ACCOUNT_ID.test(sub) ? sub.toLowerCase() : undefined;
  }

  #renewDue(t: Tokens): number {
    const lifetime = Math.max(0, t.accessExp - t.obtainedAt);
    // Refresh ahead of expiry (a fifth of the lifetime, at most 5 min), but never before `rat` allows it.
    const ahead = Math.min(5 * 60_000, lifetime / 5);
    return Math.max(t.refreshAllowedAt, t.accessExp - ahead);
  }

  #renew(rejected: boolean): Promise<Tokens> {
    this.#inflight ??= this.#doRenew(rejected).finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #doRenew(rejected: boolean): Promise<Tokens> {
    const t = this.#tokens;
    const now = this.#o.now();
    const canRefresh = t?.refresh !== undefined && now >= t.refreshAllowedAt && now < t.refreshExp - Math.min(60_000, (t.refreshExp - t.obtainedAt) / 10);
    if (t && canRefresh) {
      try {
        return this.#store(await this.#refresh(t), t);
      } catch (e) {
        // A refused refresh token means logging in again; anything else (network, 5xx after retries) is the answer.
        if (!(e instanceof HttpError && (e.status === 401 || e.status === 403))) throw e;
      }
    } else if (t && !rejected && now < t.accessExp) {
      // Not refreshable yet and still valid: keep using it.
      return t;
    }
    return this.#store(await this.#login(), undefined);
  }

  #store(answer: { accessToken: string; refreshToken?: string | undefined }, previous: Tokens | undefined): Tokens {
    const now = this.#o.now();
    const access = readJwtTimes(answer.accessToken);
    const refreshToken = answer.refreshToken ?? previous?.refresh;
    const refreshTimes = answer.refreshToken ? readJwtTimes(answer.refreshToken) : undefined;
    const tokens: Tokens = {
      access: answer.accessToken,
      refresh: refreshToken,
      obtainedAt: now,
      accessExp: access.expMs ?? now + DEFAULT_ACCESS_MS,
      refreshAllowedAt: access.ratMs ?? now + DEFAULT_RAT_MS,
      refreshExp: answer.refreshToken ? (refreshTimes?.expMs ?? now + DEFAULT_REFRESH_MS) : (previous?.refreshExp ?? now + DEFAULT_REFRESH_MS),
    };
    this.#tokens = tokens;
    return tokens;
  }

  async #login(): Promise<{ accessToken: string; refreshToken?: string | undefined }> {
    const { login, password } = this.#o.credentials;
    const basic = Buffer.from(`${login}:${password}`, 'utf8').toString('base64');
    this.counts.logins++;
    const target = `${this.#o.basePath}/v2/authentication/token/basic`;
    try {
      const body = await this.#o.pipeline().request({
        method: 'POST',
        origin: this.#o.origin,
        target,
        route: LOGIN_ROUTE,
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ audience: this.#o.audience ?? 'NadeoServices' }),
        signal: this.#o.lifetime,
        handle: jsonHandler({ method: 'POST', route: LOGIN_ROUTE, target }, this.#o.now),
      });
      return parseBody(TokenPairWire, body, LOGIN_ROUTE, '');
    } catch (e) {
      if (e instanceof HttpError && (e.status === 401 || e.status === 403)) {
        throw new AuthError(
          `Logging in to Nadeo failed (HTTP ${e.status}): the login or password is wrong. Trackwatch needs a Nadeo service account ` +
            '(create one on trackmania.com) or a dedicated-server account, not your Ubisoft login.',
          e.status,
          { cause: e },
        );
      }
      throw e;
    }
  }

  async #refresh(t: Tokens): Promise<{ accessToken: string; refreshToken?: string | undefined }> {
    this.counts.refreshes++;
    const target = `${this.#o.basePath}/v2/authentication/token/refresh`;
    const body = await this.#o.pipeline().request({
      method: 'POST',
      origin: this.#o.origin,
      target,
      route: REFRESH_ROUTE,
      headers: { authorization: `nadeo_v1 t=${t.refresh ?? ''}`, accept: 'application/json' },
      signal: this.#o.lifetime,
      handle: jsonHandler({ method: 'POST', route: REFRESH_ROUTE, target }, this.#o.now),
    });
    return parseBody(TokenPairWire, body, REFRESH_ROUTE, '');
  }
}
