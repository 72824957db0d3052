// What Nadeo's identifiers look like, one definition for main, the command line and the renderer: map IDs, account
// IDs, record IDs and season IDs are UUIDs; a map UID is its own shape (docs/seed-contract.md, "mapUid").

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Real UIDs are 24 to 27 letters and digits; older and hand-made ones vary, so a little either side is taken, and
// '_'. All digits is a Trackmania Exchange ID, not a UID.
const MAP_UID = /^(?!\d+$)[A-Za-z0-9_]{18,32}$/;
// What the API client lets into a request path or query unescaped: looser than a UID (it sends what the service
// named, season and group IDs too), but never a character that would change the request.
const SENDABLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A map, account, record or season ID: a UUID, in either case (Nadeo writes them in lower case). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** A map UID: 18 to 32 letters, digits and '_', not all digits. */
export function isMapUid(text: string): boolean {
  return MAP_UID.test(text);
}

/** An ID the API client may send as it is (a map UID, a season or group ID): 1 to 64 letters, digits, '_', '-'. */
export function isSendableId(text: string): boolean {
  return SENDABLE_ID.test(text);
}
