// Golden files for the tests that hold an output byte for byte across work that must not change it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * The golden text at `file`. With UPDATE_GOLDEN=1 it is written from `actual` first (review the diff before
 * committing it); a missing file is a failure, never a pass.
 */
export function golden(file: string, actual: string): string {
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  else if (!existsSync(file)) throw new Error(`${file} is missing: run the test with UPDATE_GOLDEN=1 to write it, and review it`);
  return readFileSync(file, 'utf8');
}
