// The crowd's names are kept while what they are made from stays: the maps' crowds and the dataset's own names. A name
// the dataset takes later is the dataset player's, and the crowd player who held it draws another.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { nameBookOf } from '../../../src-main/emulator/crowd-names.ts';
import { crowdPlayer } from '../../../src-main/emulator/world.ts';

const NOW = Date.parse('2026-11-15T12:00:00Z');

describe('the crowd names (emulator/crowd-names.ts)', () => {
  it('a name the dataset gives a player afterwards stays unique: the crowd player draws another', () => {
    const dataset = generateDataset({ seed: 2026, maps: 24, players: 12, style: 'season', now: NOW });
    const map = dataset.maps.find((m) => (m.population ?? 0) > 0)!;
    const holder = crowdPlayer(map, 0, NOW).accountId;
    const book = nameBookOf(dataset, () => NOW);
    const name = book.nameOf(holder)!;
    expect(name).toMatch(/^[A-Z][a-z]+\d{4}$/);
    const player = Object.keys(dataset.displayNames ?? {})[0]!;
    dataset.displayNames = { ...dataset.displayNames, [player]: name };
    expect(book.idOf(name)).toBe(player);
    const redrawn = book.nameOf(holder)!;
    expect(redrawn).toMatch(/^[A-Z][a-z]+\d{4}$/);
    expect(redrawn).not.toBe(name);
    expect(book.idOf(redrawn)).toBe(holder.toLowerCase());
  });
});
