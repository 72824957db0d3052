// The Trackmania OAuth API's answers (docs/nadeo-api.md "Player names"): its token, display names by account ID, and
// account IDs by display name.
import { z } from 'zod';

export const OAuthTokenWire = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive().optional(),
});

// Some PHP backends encode an empty map as `[]` (docs/nadeo-api.md "Beyond the seed"): that is "no names".
export const DisplayNamesWire = z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? {} : v), z.record(z.string(), z.string()));

/** Account IDs by name: `{"name": "accountId"}`, or `[]` when no name is known. */
export const AccountIdsWire = z.union([z.record(z.string(), z.string()), z.array(z.unknown()).max(0)]);
