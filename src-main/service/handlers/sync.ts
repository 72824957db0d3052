// Sync: what it will cost, start, cancel and status of the one sync at a time; CSV export of what was synced.
import { Writable } from 'node:stream';
import { exportCsv, exportFileName } from '../../core/export/csv.ts';
import { describeCost } from '../../core/sync/plan.ts';
import { ServiceError } from '../errors.ts';
import type { HandlerContext, SomeHandlers } from './context.ts';

export function syncHandlers({ service, tw, requireList }: HandlerContext): SomeHandlers<'sync.plan' | 'sync.start' | 'sync.cancel' | 'sync.status'> {
  return {
    'sync.plan': async ({ list, replays }) => {
      if (list !== undefined) requireList(list);
      // The window's syncs ask the world positions unless Settings turned them off: the plan counts them the same way.
      const plan = tw().planSync({ list, replays, positions: service.settings.worldPositions });
      return {
        recordRequests: plan.recordRequests, mapLookups: plan.mapLookups, replayDownloads: plan.replayDownloads,
        positionRequests: plan.positionRequests, worldRecordRequests: plan.worldRecordRequests, requests: plan.requests, positionSeconds: plan.positionSeconds, seconds: plan.seconds,
        firstSync: plan.firstSync, large: plan.large, line: describeCost(plan),
      };
    },

    'sync.start': async ({ list, replays }) => {
      if (service.folder.setup === 'none') throw new ServiceError('not_configured', 'Choose the demo or connect an account first.');
      if (list !== undefined) requireList(list);
      if (!service.canSync) throw new ServiceError('not_configured', 'Add your service account in Settings to sync.');
      return { runId: await service.runner.start({ list, replays }) };
    },

    'sync.cancel': async () => ({ cancelled: service.runner.cancel() }),

    'sync.status': async () => ({ running: service.runner.running, last: service.runner.last, nextScheduledAt: service.schedule.nextAt }),
  };
}

/** Collects an export in memory, for browser mode's download: no temp file anywhere, so no temp space needed. */
class TextSink extends Writable {
  readonly #chunks: string[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.#chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    done();
  }
  get text(): string {
    return this.#chunks.join('');
  }
}

export function exportHandlers({ service, tw, requireList }: HandlerContext): SomeHandlers<'export.csv'> {
  return {
    'export.csv': async ({ list, bom }) => {
      if (list !== undefined) requireList(list);
      const fileName = exportFileName(list, service.now());
      if (service.host.chooseSaveFile) {
        const file = await service.host.chooseSaveFile(fileName);
        if (!file) return { kind: 'cancelled' as const };
        // The save dialog asked before replacing a file: its answer is the player's --force.
        const result = await tw().exportCsv(file, { list, bom, force: true });
        return { kind: 'saved' as const, file: result.file, rows: result.rows };
      }
      const sink = new TextSink({ decodeStrings: false });
      const result = await exportCsv(tw().store, sink, { list, bom });
      return { kind: 'download' as const, fileName, content: sink.text, rows: result.rows };
    },
  };
}
