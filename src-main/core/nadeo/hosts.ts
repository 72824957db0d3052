// Nadeo's real services (docs/nadeo-api.md "The real service", "Beyond the seed", "Player names"): their addresses,
// and which hosts are theirs, where the strict citizen rules apply (https, a contact, the rate ceiling).
import { parseBase, type BaseUrl } from './http/base-url.ts';

export const REAL_BASE_URL = 'https://prod.trackmania.core.nadeo.online';
export const REAL_LIVE_BASE_URL = 'https://live-services.trackmania.nadeo.live';
export const REAL_OAUTH_BASE_URL = 'https://api.trackmania.com';

/** Hosts of the real service: they get the strict citizen rules (contact required). */
export function isRealServiceHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h.endsWith('.nadeo.online') || h.endsWith('.nadeo.live') || h === 'trackmania.com' || h.endsWith('.trackmania.com');
}

/** A Nadeo service's base URL (the Core, Live or OAuth API, or an emulator of it), checked. */
export function parseNadeoBase(raw: string, what: string): BaseUrl {
  return parseBase(raw, what, isRealServiceHost);
}
