// The Trackmania OAuth API's display names (docs/nadeo-api.md "Player names"): client-credentials token, then names by ID,
// and account IDs by name (docs/oauth/reference/accounts/name-to-id.md in openplanet-nl/nadeoapi-docs).
import { createHmac, randomBytes } from 'node:crypto';
import { json, type Answer } from './answers.ts';
import type { NameBook } from './crowd-names.ts';
import { UUID_PATTERN } from './dataset.ts';

export interface OAuthOptions {
  clientId: string;
  clientSecret: string;
}

const TOKEN_TTL_SEC = 3600;
export const MAX_DISPLAY_NAMES_PER_CALL = 50;

/** Without options it is open: any client gets a token, and names need none. */
export class DisplayNamesApi {
  readonly #options: OAuthOptions | undefined;
  readonly #tokens = new Map<string, number>();
  readonly #now: () => number;
  // A fresh signing key per emulator: its tokens are JWTs like the real ones, valid nowhere else.
  readonly #secret = randomBytes(32);

  constructor(options: OAuthOptions | undefined, now: () => number = Date.now) {
    this.#options = options;
    this.#now = now;
  }

  /** POST /api/access_token, form body grant_type=client_credentials&client_id=…&client_secret=… */
  accessToken(body: string): Answer {
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials')
      return json(400, { error: 'unsupported_grant_type', message: 'grant_type must be client_credentials.' });
    if (this.#options && (form.get('client_id') !== this.#options.clientId || form.get('client_secret') !== this.#options.clientSecret))
      return json(401, { error: 'invalid_client', message: 'Client authentication failed.' });
    const token = this.#jwt(form.get('client_id') ?? '');
    this.#tokens.set(token, this.#now() + TOKEN_TTL_SEC * 1000);
    return json(200, { token_type: 'bearer', expires_in: TOKEN_TTL_SEC, access_token: token });
  }

  /** A client-credentials access token: a JWT with the claims a Laravel Passport server gives (no user: empty sub). */
  #jwt(clientId: string): string {
    const now = Math.floor(this.#now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = { aud: clientId, jti: randomBytes(40).toString('hex'), iat: now, nbf: now, exp: now + TOKEN_TTL_SEC, sub: '', scopes: [] };
    const unsigned = `${part({ typ: 'JWT', alg: 'HS256' })}.${part(claims)}`;
    return `${unsigned}.${createHmac('sha256', this.#secret).update(unsigned).digest('base64url')}`;
  }

  /** The 401 to send when the emulator wants a token and this one is missing, unknown or expired. */
  #refusal(authorization: string | undefined): Answer | undefined {
    if (!this.#options) return undefined;
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const expiresAt = token === undefined ? undefined : this.#tokens.get(token);
    if (expiresAt === undefined || this.#now() >= expiresAt) return json(401, { error: 'invalid_token', message: 'Missing, unknown or expired Bearer token.' });
    return undefined;
  }

  /**
   * GET /api/display-names/account-ids?displayName[]=…: each known name (as asked) to its account ID; unknown names are
   * left out, and when none is known the answer is `[]` (the PHP backend's empty map).
   */
  accountIds(authorization: string | undefined, query: URLSearchParams, names: NameBook): Answer {
    const refused = this.#refusal(authorization);
    if (refused) return refused;
    const asked = query.getAll('displayName[]');
    if (asked.length === 0) return json(400, { error: 'invalid_request', message: 'Give at least one displayName[].' });
    if (asked.length > MAX_DISPLAY_NAMES_PER_CALL)
      return json(400, { error: 'invalid_request', message: `At most ${MAX_DISPLAY_NAMES_PER_CALL} displayName[] per call.` });
    const answer: Record<string, string> = {};
    for (const name of asked) {
      const id = names.idOf(name);
      if (id !== undefined) answer[name] = id;
    }
    return json(200, Object.keys(answer).length > 0 ? answer : []);
  }

  /** GET /api/display-names?accountId[]=…&accountId[]=… : names of the known accounts, the others left out. */
  displayNames(authorization: string | undefined, query: URLSearchParams, names: NameBook): Answer {
    const refused = this.#refusal(authorization);
    if (refused) return refused;
    const ids = query.getAll('accountId[]');
    if (ids.length === 0) return json(400, { error: 'invalid_request', message: 'Give at least one accountId[].' });
    if (ids.length > MAX_DISPLAY_NAMES_PER_CALL)
      return json(400, { error: 'invalid_request', message: `At most ${MAX_DISPLAY_NAMES_PER_CALL} accountId[] per call.` });
    const invalid = ids.find((id) => !UUID_PATTERN.test(id));
    if (invalid !== undefined) return json(400, { error: 'invalid_request', message: `Invalid account id: ${invalid}` });
    const answer: Record<string, string> = {};
    for (const id of ids) {
      const name = names.nameOf(id);
      if (name !== undefined) answer[id] = name;
    }
    return json(200, answer);
  }
}
