// Reads the claims of Nadeo's JWTs (exp: expiry, rat: refresh allowed at). Signatures are not verified: the
// token came from the service over TLS and is only handed back to it; we read it to know when to renew.

export interface JwtTimes {
  /** Expiry, ms since the epoch. */
  expMs: number | undefined;
  /** Refresh allowed from, ms since the epoch. */
  ratMs: number | undefined;
  /** Issued at, ms since the epoch. */
  iatMs: number | undefined;
}

export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  const payload = parts[1];
  if (parts.length < 2 || payload === undefined || payload === '') return undefined;
  try {
    const json: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
}

export function readJwtTimes(token: string): JwtTimes {
  const claims = decodeJwtPayload(token);
  return { expMs: seconds(claims?.['exp']), ratMs: seconds(claims?.['rat']), iatMs: seconds(claims?.['iat']) };
}
