// Dataset parsing: a bad dataset is refused with an error that names the bad field.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError, generateDataset, loadDataset, parseDataset, type Dataset } from '../../../src-main/emulator/index.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

function valid(): Dataset {
  return JSON.parse(JSON.stringify(generateDataset({ now: DATA_NOW, seed: 1, maps: 6, players: 4 }))) as Dataset;
}

function issuesOf(json: unknown): string[] {
  try {
    parseDataset(json);
  } catch (error) {
    if (error instanceof DatasetError) return error.issues;
    throw error;
  }
  throw new Error('parsed without error');
}

describe('parseDataset', () => {
  it('accepts a generated dataset, and one without displayNames', () => {
    const dataset = valid();
    delete dataset.displayNames;
    expect(parseDataset(dataset).maps).toHaveLength(6);
  });

  it('names a bad map ID, a missing field and an unknown field', () => {
    const dataset = valid() as unknown as { maps: Record<string, unknown>[] };
    const [first, second, third] = dataset.maps;
    if (!first || !second || !third) throw new Error('too few maps');
    first.mapId = 'abc';
    delete second.goldScore;
    third.secretTreshold = 5;
    const issues = issuesOf(dataset);
    expect(issues).toContain('maps[0].mapId: must be a UUID (8-4-4-4-12 hex digits)');
    expect(issues).toContain('maps[1].goldScore: missing (expected number)');
    expect(issues.some((i) => i.startsWith('maps[2]') && i.includes('secretTreshold'))).toBe(true);
  });

  it('names a mapType with two backslashes, a timestamp without offset and a negative time', () => {
    const dataset = valid();
    const [map] = dataset.maps;
    const [record] = dataset.records;
    if (!map || !record) throw new Error('empty');
    map.mapType = 'TrackMania\\\\TM_Race';
    record.timestamp = '2026-05-01T12:00:00';
    record.recordScore.time = -1;
    const issues = issuesOf(dataset).join('\n');
    expect(issues).toContain('maps[0].mapType');
    expect(issues).toContain('records[0].timestamp');
    expect(issues).toContain('records[0].recordScore.time');
  });

  it('names a record of an unknown map, a repeated record ID, a second record in the same leaderboard and a bad scope', () => {
    const dataset = valid();
    const [a, b, c] = dataset.records;
    if (!a || !b || !c) throw new Error('too few records');
    a.mapId = '00000000-0000-4000-8000-000000000000';
    dataset.records.push({ ...structuredClone(b) });
    c.scopeType = 'Season';
    const issues = issuesOf(dataset).join('\n');
    expect(issues).toContain('records[0].mapId: names no map of the dataset');
    expect(issues).toMatch(/records\[\d+\]\.mapRecordId: repeats records\[1\]\.mapRecordId/);
    expect(issues).toMatch(/records\[\d+\]: a second record of this account/);
    expect(issues).toContain('records[2].scopeId: must be the season ID when scopeType is Season');
  });

  it('names a repeated map UID', () => {
    const dataset = valid();
    const [a, b] = dataset.maps;
    if (!a || !b) throw new Error('too few maps');
    b.mapUid = a.mapUid;
    expect(issuesOf(dataset)).toContain('maps[1].mapUid: repeats maps[0].mapUid');
  });

  it('refuses something that is not a dataset at all, with the message naming the field', () => {
    expect(() => parseDataset({ maps: 'x' })).toThrow(/invalid dataset: maps: .*records: missing/);
    expect(() => parseDataset(null)).toThrow(DatasetError);
  });
});

describe('loadDataset', () => {
  it('reads a file, and says which file is not JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tw-dataset-'));
    try {
      const good = join(dir, 'good.json');
      await writeFile(good, JSON.stringify(valid()));
      expect((await loadDataset(good)).maps).toHaveLength(6);
      const bad = join(dir, 'bad.json');
      await writeFile(bad, '{ not json');
      await expect(loadDataset(bad)).rejects.toThrow(/bad\.json: not JSON/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
