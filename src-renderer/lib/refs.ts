/** Splits pasted text into map references: one per line, or separated by spaces, commas or semicolons. */
export function splitRefs(text: string): string[] {
  const seen = new Set<string>();
  const refs: string[] = [];
  for (const piece of text.split(/[\s,;]+/)) {
    const ref = piece.trim();
    if (ref && !seen.has(ref)) {
      seen.add(ref);
      refs.push(ref);
    }
  }
  return refs;
}

export interface PlayerLine {
  accountId: string;
  nickname?: string;
}

/** Reads "accountId nickname" lines (the nickname may hold spaces; a comma or tab also separates). */
export function splitPlayers(text: string): PlayerLine[] {
  const players: PlayerLine[] = [];
  const seen = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const match = /^([^\s,;\t]+)[\s,;\t]*(.*)$/.exec(line);
    if (!match?.[1] || seen.has(match[1])) continue;
    seen.add(match[1]);
    const nickname = match[2]?.trim();
    players.push(nickname ? { accountId: match[1], nickname } : { accountId: match[1] });
  }
  return players;
}
