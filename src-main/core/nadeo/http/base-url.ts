// A service's base URL as the options give it: checked once, split into the origin requests go to and the path
// every route is under.
import { ConfigError } from './errors.ts';

export interface BaseUrl {
  /** scheme://host[:port], what the pipeline and the limiters key on. */
  origin: string;
  /** The path every route is under, without a trailing slash (usually ''). */
  basePath: string;
  url: URL;
  /** A host of the real services: the strict citizen rules apply (https, a contact, the rate ceiling). */
  real: boolean;
}

/** Reads `raw` (named `what` in errors); `isReal` says which hosts are a real service's. */
export function parseBase(raw: string, what: string, isReal: (hostname: string) => boolean): BaseUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${what} "${raw}" is not a valid URL; use e.g. https://prod.trackmania.core.nadeo.online.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${what} must be an http(s) URL, got ${url.protocol}.`);
  if (url.username || url.password) throw new ConfigError(`${what} must not carry a user name or password; use the credentials option.`);
  if (url.search || url.hash) throw new ConfigError(`${what} must not have a query or fragment.`);
  const real = isReal(url.hostname);
  if (real && url.protocol !== 'https:') throw new ConfigError(`${what}: the real service must be reached over https.`);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), url, real };
}
