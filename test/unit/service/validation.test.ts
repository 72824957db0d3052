// The contract's refusals reach a player as sentences, never as zod's wording.
import { describe, expect, it } from 'vitest';
import { commands } from '../../../src-main/contract/commands.ts';
import { dispatch } from '../../../src-main/service/dispatch.ts';
import type { Handlers } from '../../../src-main/contract/commands.ts';

const handlers = new Proxy({}, { get: () => async () => ({ done: true }) }) as unknown as Handlers;

async function refusal(name: string, input: unknown): Promise<string> {
  const result = await dispatch(handlers, name, input);
  if (result.ok) throw new Error(`${name} accepted ${JSON.stringify(input)}`);
  expect(result.error.code).toBe('invalid_input');
  return result.error.message;
}

describe('validation errors as sentences', () => {
  it('names the player and the field, with the limit', async () => {
    const long = 'x'.repeat(101);
    expect(await refusal('watchlists.addPlayers', { list: 'Demo', players: [{ accountId: long }] })).toBe(
      "Player 1's account ID is too long: at most 100 characters.",
    );
    expect(await refusal('watchlists.addPlayers', { list: 'Demo', players: [{ accountId: 'a' }, { accountId: 'b', nickname: 'n'.repeat(61) }] })).toBe(
      "Player 2's nickname is too long: at most 60 characters.",
    );
    expect(await refusal('watchlists.addPlayers', { list: 'Demo', players: [] })).toBe('Give at least 1 player.');
    expect(await refusal('watchlists.addMaps', { list: 'Demo', refs: Array.from({ length: 5001 }, () => 'x') })).toBe('Give at most 5000 maps at once.');
  });

  it('keeps a schema\'s own sentence, and words missing, mistyped and unknown input', async () => {
    expect(await refusal('watchlists.create', { name: '  ' })).toBe('A list needs a name.');
    expect(await refusal('watchlists.create', {})).toBe('Name is missing.');
    expect(await refusal('compare.get', { list: 'Demo', first: 1.5 })).toBe('Number of rows must be a whole number.');
    expect(await refusal('settings.update', { theme: 'pink' })).toBe('Theme must be one of "dark", "light", "system".');
    expect(await refusal('sync.start', { list: 'Demo', extra: true })).toBe('The input has something Trackwatch does not know: "extra".');
  });

  it('never shows zod\'s wording or a dotted path for any command given nonsense', async () => {
    for (const name of Object.keys(commands)) {
      for (const input of [{ list: 7, name: 7, players: 'x', refs: 'x', accountId: 7, mapUid: 7 }, 'text', [1]]) {
        const result = await dispatch(handlers, name, input);
        if (result.ok) continue;
        expect(result.error.message, name).not.toMatch(/Too (big|small)|Invalid input|expected \w+ to|\w+\.\d+\./);
        expect(result.error.message, name).toMatch(/^[A-Z"].*\.$/);
      }
    }
  });
});
