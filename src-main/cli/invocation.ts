// How to run this same trackwatch again, as a command a player can paste into any folder: "trackwatch" when that is
// on PATH and is this copy, else node with this copy's absolute path (`npx` or `npm run` work only in the project
// folder, and an `npx trackwatch` elsewhere would fetch another package).
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** A path quoted for a shell when it needs quoting (spaces, quotes, $): "C:\Program Files\…", '/tmp/my data'. */
export function shellQuoted(text: string): string {
  if (/^[\w@%+=:,./\\-]+$/.test(text)) return text;
  return process.platform === 'win32' ? `"${text.replace(/"/g, '""')}"` : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command that runs this trackwatch from any folder: `trackwatch`, or `node /abs/path/bin/trackwatch.js`. */
export function selfCommand(bin: string | undefined, path: string): string {
  const me = bin === undefined ? undefined : real(bin);
  if (me === undefined) return 'trackwatch';
  const names = process.platform === 'win32' ? ['trackwatch.cmd', 'trackwatch.exe', 'trackwatch'] : ['trackwatch'];
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (existsSync(candidate) && real(candidate) === me) return 'trackwatch';
    }
  }
  return `node ${shellQuoted(me)}`;
}
