// The Trackmania OAuth API's display names (API-FACTS "Player names"): client-credentials token, then names by ID.
import { randomBytes } from 'node:crypto';
import { json, type Answer } from './answers.ts';
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
    const token = randomBytes(24).toString('hex');
    this.#tokens.set(token, this.#now() + TOKEN_TTL_SEC * 1000);
    return json(200, { token_type: 'bearer', expires_in: TOKEN_TTL_SEC, access_token: token });
  }

  /** GET /api/display-names?accountId[]=…&accountId[]=… : names of the known accounts, the others left out. */
  displayNames(authorization: string | undefined, query: URLSearchParams, names: Record<string, string> | undefined): Answer {
    if (this.#options) {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      const expiresAt = token === undefined ? undefined : this.#tokens.get(token);
      if (expiresAt === undefined || this.#now() >= expiresAt)
        return json(401, { error: 'invalid_token', message: 'Missing, unknown or expired Bearer token.' });
    }
    const ids = query.getAll('accountId[]');
    if (ids.length === 0) return json(400, { error: 'invalid_request', message: 'Give at least one accountId[].' });
    if (ids.length > MAX_DISPLAY_NAMES_PER_CALL)
      return json(400, { error: 'invalid_request', message: `At most ${MAX_DISPLAY_NAMES_PER_CALL} accountId[] per call.` });
    const invalid = ids.find((id) => !UUID_PATTERN.test(id));
    if (invalid !== undefined) return json(400, { error: 'invalid_request', message: `Invalid account id: ${invalid}` });
    const answer: Record<string, string> = {};
    for (const id of ids) {
      const name = names?.[id] ?? names?.[id.toLowerCase()];
      if (name !== undefined) answer[id] = name;
    }
    return json(200, answer);
  }
}
