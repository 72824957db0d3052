// The data folder a Trackwatch works in: checked, made if needed, and its store opened. The network is not touched.
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { databaseFile } from '../paths.ts';
import { LocalFaultCode, LocalFaultError, localFault, openStore, type Store } from '../store/index.ts';

export interface OpenOptions {
  /**
   * Only reading is intended: a data folder on read-only media (or whose database file cannot be written) is opened
   * as it is (reads work, a write says why) instead of refused. The folder must hold a database: read commands never
   * create one.
   */
  readOnly?: boolean;
}

/**
 * Opens the data folder (creating it, unless only reading) and its store. A data folder that cannot be used (a file,
 * read-only media for a command that writes) is a LocalFaultError saying what to do.
 */
export async function openDataFolder(dir: string, open: OpenOptions = {}): Promise<Store> {
  const found = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw localFault(error, dir) ?? error;
  });
  if (found && !found.isDirectory()) {
    throw new LocalFaultError(LocalFaultCode.DATA_FOLDER_UNUSABLE, 'ENOTDIR', `the data folder ${dir} is a file, not a folder; choose another with --data-dir (or TRACKWATCH_DATA_DIR).`);
  }
  const canWrite = (path: string): Promise<boolean> => access(path, constants.W_OK).then(() => true, (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
  // Read-only media, or a database file that cannot be written in a folder that can (SQLite would open it read-only
  // without a word, and fail at the first write).
  const writable = found ? (await canWrite(dir)) && (await canWrite(databaseFile(dir))) : true;
  if (!writable && !open.readOnly) {
    throw new LocalFaultError(
      LocalFaultCode.READ_ONLY,
      'EACCES',
      `the data folder ${dir} cannot be written (read-only media, or not yours); reading works (compare, records, history, export csv --out elsewhere). To change anything, use a writable folder (--data-dir).`,
    );
  }
  try {
    if (!found) await mkdir(dir, { recursive: true });
    return openStore({ file: databaseFile(dir), dataDir: dir, readOnlyMedia: !writable });
  } catch (error) {
    throw localFault(error, dir) ?? error;
  }
}
