// The emulator's clock (issue 16): a generated season is as of its `now`, and the Live routes answer as of the
// server's `now`; with both on one fixed moment the calendar holds mid-month, on a month's last evening and across
// the year change.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { startTestEmulator } from '../../helpers/emulator.ts';
import { emulatorOptionsFrom } from '../../../src-main/cli/commands/emulator.ts';
import { get } from './support.ts';

interface Campaigns {
  campaignList: { name: string; startTimestamp: number; endTimestamp: number; playlist: { mapUid: string }[] }[];
  nextRequestTimestamp: number;
  relativeNextRequest: number;
}
interface Months {
  monthList: { year: number; month: number; days: { mapUid: string; monthDay: number; startTimestamp: number }[] }[];
  nextRequestTimestamp: number;
  relativeNextRequest: number;
}

/** What the Live routes say about the calendar when the data and the service both stand at `iso`. */
async function calendarAt(iso: string): Promise<{ nowSec: number; campaigns: Campaigns; months: Months; names: Map<string, string>; lastRecordMs: number }> {
  const now = Date.parse(iso);
  const dataset = generateDataset({ seed: 2026, maps: 30, players: 8, style: 'season', now });
  const emu = await startTestEmulator({ dataset, now: () => now });
  try {
    const campaigns = (await get(`${emu.url}/api/campaign/official?offset=0&length=3`)).json<Campaigns>();
    const months = (await get(`${emu.url}/api/token/campaign/month?offset=0&length=2`)).json<Months>();
    const names = new Map(dataset.maps.map((m) => [m.mapUid, m.name]));
    const lastRecordMs = Math.max(...dataset.records.map((r) => Date.parse(r.timestamp)));
    return { nowSec: now / 1000, campaigns, months, names, lastRecordMs };
  } finally {
    await emu.close();
  }
}

/** The checks that hold at any moment: the running campaign is current, and the next requests are in the future. */
function expectConsistent({ nowSec, campaigns, months, lastRecordMs }: Awaited<ReturnType<typeof calendarAt>>): void {
  const [current] = campaigns.campaignList;
  expect(current!.startTimestamp).toBeLessThanOrEqual(nowSec);
  expect(current!.endTimestamp).toBeGreaterThan(nowSec);
  expect(campaigns.nextRequestTimestamp).toBe(current!.endTimestamp);
  expect(campaigns.relativeNextRequest).toBe(current!.endTimestamp - nowSec);
  expect(months.nextRequestTimestamp).toBeGreaterThan(nowSec);
  expect(months.relativeNextRequest).toBe(months.nextRequestTimestamp - nowSec);
  expect(months.nextRequestTimestamp - nowSec).toBeLessThanOrEqual(86_400);
  // Every day opened by now has its map, every later one none.
  for (const day of months.monthList[0]!.days) expect(day.mapUid !== '').toBe(day.startTimestamp <= nowSec);
  expect(lastRecordMs).toBeLessThanOrEqual(nowSec * 1000);
}

describe('the emulator\'s clock', () => {
  it('mid-month (2026-11-20): Fall 2026 with its official maps; November played to the 20th; the next day tomorrow', async () => {
    const at = await calendarAt('2026-11-20T19:00:00Z');
    expectConsistent(at);
    expect(at.campaigns.campaignList.map((c) => c.name)).toEqual(['Fall 2026', 'Summer 2026', 'Spring 2026']);
    expect(at.campaigns.campaignList[0]!.playlist.map((p) => at.names.get(p.mapUid))[0]).toBe('Fall 2026 - 01');
    const [november, october] = at.months.monthList;
    expect([november!.year, november!.month, october!.month]).toEqual([2026, 11, 10]);
    expect(november!.days.filter((d) => d.mapUid !== '')).toHaveLength(20);
    expect(october!.days.every((d) => d.mapUid !== '')).toBe(true);
    expect(at.months.nextRequestTimestamp).toBe(Date.parse('2026-11-21T18:00:00Z') / 1000);
  });

  it('a month\'s last evening (2026-11-30): every day of November has its map; the next is 1 December', async () => {
    const at = await calendarAt('2026-11-30T21:00:00Z');
    expectConsistent(at);
    expect(at.months.monthList[0]!.days.every((d) => d.mapUid !== '')).toBe(true);
    expect(at.months.nextRequestTimestamp).toBe(Date.parse('2026-12-01T18:00:00Z') / 1000);
  });

  it('the year change (2027-01-01, after 17:00 Paris time): Winter 2027 is current, named after its own official maps', async () => {
    const at = await calendarAt('2027-01-01T16:30:00Z');
    expectConsistent(at);
    expect(at.campaigns.campaignList.map((c) => c.name)).toEqual(['Winter 2027', 'Fall 2026', 'Summer 2026']);
    expect(at.campaigns.campaignList[0]!.playlist.map((p) => at.names.get(p.mapUid))[0]).toBe('Winter 2027 - 01');
    expect(at.campaigns.nextRequestTimestamp).toBe(Date.parse('2027-04-01T15:00:00Z') / 1000);
    // 1 January's Track of the Day opens at 18:00 UTC: December is still the latest month, every day played.
    expect(at.months.monthList.map((m) => [m.year, m.month])).toEqual([[2026, 12], [2026, 11]]);
    expect(at.months.nextRequestTimestamp).toBe(Date.parse('2027-01-01T18:00:00Z') / 1000);
  });

  it('the year change, that evening: January has its first day', async () => {
    const at = await calendarAt('2027-01-01T19:00:00Z');
    expectConsistent(at);
    expect(at.months.monthList.map((m) => [m.year, m.month])).toEqual([[2027, 1], [2026, 12]]);
    expect(at.months.monthList[0]!.days.filter((d) => d.mapUid !== '')).toHaveLength(1);
  });

  it('`trackwatch emulator` without a clock: the service and its generated data follow the real one', async () => {
    const before = Date.now();
    const { options } = await emulatorOptionsFrom({ seed: '3', maps: '6', players: '3', host: '127.0.0.1', port: '0' }, () => false);
    const emu = await startTestEmulator({ dataset: options.dataset });
    try {
      const months = (await get(`${emu.url}/api/token/campaign/month?offset=0&length=1`)).json<Months>();
      expect(months.nextRequestTimestamp * 1000).toBeGreaterThan(before);
      const campaigns = (await get(`${emu.url}/api/campaign/official?offset=0&length=1`)).json<Campaigns>();
      expect(campaigns.campaignList[0]!.startTimestamp * 1000).toBeLessThanOrEqual(Date.now());
      expect(campaigns.nextRequestTimestamp * 1000).toBeGreaterThan(before);
    } finally {
      await emu.close();
    }
  });
});
