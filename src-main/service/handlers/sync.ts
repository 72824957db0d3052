// Sync: start, cancel and status of the one sync at a time; CSV export of what was synced.
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '../errors.ts';
import type { HandlerContext, SomeHandlers } from './context.ts';

export function syncHandlers({ service, requireList }: HandlerContext): SomeHandlers<'sync.start' | 'sync.cancel' | 'sync.status'> {
  return {
    'sync.start': async ({ list, replays }) => {
      if (service.setup === 'none') throw new ServiceError('not_configured', 'Choose the demo or connect an account first.');
      if (list !== undefined) requireList(list);
      if (!service.canSync) throw new ServiceError('not_configured', 'Add your service account in Settings to sync.');
      return { runId: await service.runner.start({ list, replays }) };
    },

    'sync.cancel': async () => ({ cancelled: service.runner.cancel() }),

    'sync.status': async () => ({ running: service.runner.running, last: service.runner.last, nextScheduledAt: service.nextScheduledAt }),
  };
}

export function exportHandlers({ service, tw, requireList }: HandlerContext): SomeHandlers<'export.csv'> {
  return {
    'export.csv': async ({ list, bom }) => {
      if (list !== undefined) requireList(list);
      const stamp = service.now().toISOString().slice(0, 10);
      const fileName = `trackwatch-${(list ?? 'all-lists').replace(/[^\w.-]+/g, '_')}-${stamp}.csv`;
      if (service.host.chooseSaveFile) {
        const file = await service.host.chooseSaveFile(fileName);
        if (!file) return { kind: 'cancelled' as const };
        const result = await tw().exportCsv(file, { list, bom });
        return { kind: 'saved' as const, file: result.file, rows: result.rows };
      }
      const file = join(tmpdir(), `trackwatch-export-${process.pid}-${Date.now()}.csv`);
      try {
        const result = await tw().exportCsv(file, { list, bom });
        const content = await readFile(file, 'utf8');
        return { kind: 'download' as const, fileName, content, rows: result.rows };
      } finally {
        await rm(file, { force: true });
      }
    },
  };
}
