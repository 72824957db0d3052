// The Trackmania OAuth API's token (docs/nadeo-api.md "Player names"): client credentials of an app the player
// registers on api.trackmania.com, cached until it expires; concurrent callers share one fetch.
import { jsonHandler } from '../http/answers.ts';
import { AuthError, HttpError } from '../http/errors.ts';
import { readJwtTimes } from '../http/jwt.ts';
import { parseBody } from '../http/parse.ts';
import type { Pipeline, TokenSource } from '../http/pipeline.ts';
import { raceSignal } from '../http/signals.ts';
import { OAuthTokenWire } from './schemas.ts';

/** OAuth client credentials for display names (docs/nadeo-api.md "Player names"); the token is cached until it expires. */
export interface OAuthOptions {
  origin: string;
  basePath: string;
  clientId: string;
  clientSecret: string;
  pipeline: () => Pipeline;
  now: () => number;
  lifetime: AbortSignal;
}

export const OAUTH_TOKEN_ROUTE = 'POST /api/access_token';

export class OAuthClientCredentials implements TokenSource {
  readonly origin: string;
  readonly #o: OAuthOptions;
  #token: { value: string; expiresAt: number } | undefined;
  #inflight: Promise<{ value: string; expiresAt: number }> | undefined;
  readonly counts = { tokens: 0 };

  constructor(options: OAuthOptions) {
    this.#o = options;
    this.origin = options.origin;
  }

  async authorization(signal: AbortSignal): Promise<{ header: string; token: string }> {
    let t = this.#token;
    if (!t || this.#o.now() >= t.expiresAt) t = await raceSignal(this.#fetch(), signal);
    return { header: `Bearer ${t.value}`, token: t.value };
  }

  async renewAfterRejection(token: string, signal: AbortSignal): Promise<void> {
    if (this.#token && this.#token.value !== token) return;
    this.#token = undefined;
    await raceSignal(this.#fetch(), signal);
  }

  #fetch(): Promise<{ value: string; expiresAt: number }> {
    this.#inflight ??= this.#doFetch().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #doFetch(): Promise<{ value: string; expiresAt: number }> {
    this.counts.tokens++;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: this.#o.clientId, client_secret: this.#o.clientSecret });
    const target = `${this.#o.basePath}/api/access_token`;
    try {
      const body = await this.#o.pipeline().request({
        method: 'POST',
        origin: this.#o.origin,
        target,
        route: OAUTH_TOKEN_ROUTE,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: this.#o.lifetime,
        handle: jsonHandler({ method: 'POST', route: OAUTH_TOKEN_ROUTE, target }, this.#o.now),
      });
      const answer = parseBody(OAuthTokenWire, body, OAUTH_TOKEN_ROUTE, '');
      // The token is a JWT: without expires_in its exp claim says how long it lives.
      const expMs = readJwtTimes(answer.access_token).expMs;
      const lifetimeMs = answer.expires_in !== undefined ? answer.expires_in * 1000 : expMs !== undefined ? Math.max(0, expMs - this.#o.now()) : 3600_000;
      // Renew a little early so a token never expires on the way to the service.
      const token = { value: answer.access_token, expiresAt: this.#o.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 10) };
      this.#token = token;
      return token;
    } catch (e) {
      if (e instanceof HttpError && (e.status === 400 || e.status === 401 || e.status === 403)) {
        throw new AuthError(
          `Getting a Trackmania OAuth token failed (HTTP ${e.status}): the client ID or secret is wrong. Check the app registered on api.trackmania.com.`,
          e.status,
          { cause: e },
        );
      }
      throw e;
    }
  }
}
