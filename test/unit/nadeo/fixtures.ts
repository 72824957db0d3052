// Seed-shaped sample objects and helpers shared by the nadeo unit tests.

export const sampleMap = {
  author: 'd2372a08-a8a1-46cb-97fb-23a161d85ad0',
  authorScore: 26972,
  bronzeScore: 41000,
  silverScore: 33000,
  goldScore: 29000,
  collectionName: 'Stadium',
  createdWithGamepadEditor: false,
  createdWithSimpleEditor: false,
  filename: 'Megacity Race.Map.Gbx',
  hasClones: false,
  isPlayable: true,
  mapId: '8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1b',
  mapUid: 'ZNE7Z4Gu0rBFXgSHO6yEjXTrS6i',
  mapStyle: '',
  mapType: 'TrackMania\\TM_Race',
  name: '$i$a1bLaserhawk $fff- Megacity Race',
  submitter: 'd2372a08-a8a1-46cb-97fb-23a161d85ad0',
  timestamp: '2021-07-01T17:00:00+00:00',
  fileUrl: 'https://core.trackmania.nadeo.live/storageObjects/abc',
  thumbnailUrl: 'https://core.trackmania.nadeo.live/storageObjects/abc.jpg',
};

/** A valid UUID numbered `n` (prefix picks a family: accounts, maps, records...). */
export function uuid(n: number, prefix = 0): string {
  return `${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function sampleRecord(i: number) {
  return {
    accountId: uuid(i, 0xacc),
    mapId: sampleMap.mapId,
    mapRecordId: uuid(i, 0x5ec),
    filename: 'Replays\\Downloaded\\x.replay.gbx',
    gameMode: 'TimeAttack',
    gameModeCustomData: '',
    medal: 4,
    recordScore: { respawnCount: 4294967295, score: 0, time: 22340 },
    removed: false,
    scopeId: null,
    scopeType: 'PersonalBest',
    timestamp: '2026-01-02T03:04:05+00:00',
    url: 'https://core.trackmania.nadeo.live/mapRecords/x/replay',
  };
}


export function fakeJwt(claims: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}.c2lnbmF0dXJl`;
}


/** Map number `i`: its own ID and an alphanumeric UID of 24-27 characters. */
export function makeMap(i: number, extra: Partial<typeof sampleMap> = {}): typeof sampleMap {
  const uid = `Uid${i}${'x'.repeat(21 + (i % 4))}`.slice(0, 24 + (i % 4));
  return { ...sampleMap, mapId: uuid(i, 0xa11), mapUid: uid, ...extra };
}

/** Options for a fast client in tests: no pacing to speak of, tiny backoff, recorded sleeps. */
export function fastOptions(baseUrl: string, sleeps: number[] = []) {
  return {
    baseUrl,
    appVersion: '0.1.0',
    maxRps: 10_000,
    burst: 64,
    concurrency: 8,
    retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 4 },
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  };
}
