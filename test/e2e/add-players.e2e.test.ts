// Pasting players, as issue 11 found it: "uuidA, uuidB" on one line made uuidB the nickname of uuidA and replaced
// that player's nickname in every list. Now each line is one player, an ID is never a nickname, a nickname already
// given is kept, and every line is told what happened to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAppInBrowser, screenshot } from '../helpers/browser.ts';
import type { AppInBrowser, TestApp } from '../helpers/browser.ts';

let app: TestApp;
let page: Page;
let problems: string[];
let opened: AppInBrowser | undefined;

beforeAll(async () => {
  ({ app, page, problems } = opened = await openAppInBrowser({ app: { demo: { maxRps: 200 } }, page: { viewport: { width: 1280, height: 800 } } }));
  await page.goto(app.bridge.url);
  await page.click('[data-testid=try-demo]');
  await page.getByRole('heading', { name: /^Compare/ }).waitFor();
}, 120_000);

afterAll(async () => {
  await opened?.close();
});

describe('pasting players', () => {
  it('takes one player per line, never an ID for a nickname, keeps nicknames, and tells every line', async () => {
    const store = app.service.active.store;
    const demo = store.players.list('Demo');
    const nickOf = (accountId: string) => store.players.get(accountId)?.nickname ?? null;
    const me = app.service.demo!.me;
    const rival = demo.find((p) => p.nickname === 'Rival')!.accountId;
    const [linked, buddy] = demo.filter((p) => !p.nickname && p.accountId !== me).map((p) => p.accountId);
    // Display names come from the emulator's OAuth API: one of a player without a nickname, as they would type it.
    const names = app.service.demo!.emulator.dataset.displayNames ?? {};
    const byName = demo.find((p) => !p.nickname && ![me, linked, buddy].includes(p.accountId) && /^\S+$/.test(names[p.accountId] ?? ''))!.accountId;
    const displayName = names[byName]!;
    const before = new Map(demo.map((p) => [p.accountId, p.nickname]));

    await page.getByRole('button', { name: 'New list' }).click();
    // A list needs a name: a blank one is refused in the dialog, which stays open.
    await page.fill('[data-testid=list-name]', '   ');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('alert').filter({ hasText: 'A list needs a name.' }).waitFor();
    await page.fill('[data-testid=list-name]', 'Friends');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('heading', { name: 'Friends', level: 1 }).waitFor();
    await page.click('[data-testid=add-players]');
    await page.getByRole('button', { name: 'Paste several at once' }).click();
    const lines = [
      `${rival}, ${me}`,
      `${rival} Someone Else`,
      `https://trackmania.io/#/player/${linked}`,
      `${buddy} Buddy`,
      'not-an-id Bob',
      `${linked!.toUpperCase()} Again`,
      // A display name, as the single field takes one (issue 17 §2 item 8), with a nickname after it.
      `${displayName.toUpperCase()} Pal`,
      'https://example.com/nobody',
    ];
    await page.fill('[data-testid=players-text]', lines.join('\n'));
    // Before anything is sent, the lines that add nobody say why.
    const problemsShown = await page.locator('[data-testid=player-problems] li').allTextContents();
    expect(problemsShown).toEqual([
      'Line 1: 2 account IDs on one line: put each player on a line of their own',
      'Line 6: the same player as line 3',
      'Line 8: not an account ID, a trackmania.io player link or a display name',
    ]);
    await page.click('[data-testid=add-players-submit]');
    await page.locator('[data-testid=add-players-result]').waitFor();
    await screenshot(page, 'add-players-lines');

    const told = await page.locator('[data-testid=player-line]').evaluateAll((items) =>
      items.map((li) => [Number(li.getAttribute('data-line')), li.getAttribute('data-outcome'), li.querySelector('.what')!.textContent!.trim()]),
    );
    expect(told).toEqual([
      [1, 'refused', 'not added: 2 account IDs on one line: put each player on a line of their own'],
      [2, 'added', 'added; keeps the nickname “Rival” (not “Someone Else”: change it with the player’s pencil in the list)'],
      [3, 'added', 'added'],
      [4, 'added', 'added as “Buddy”'],
      [5, 'refused', 'not added: no player is named “not-an-id” on Trackmania (names are matched whole)'],
      [6, 'refused', 'not added: the same player as line 3'],
      [7, 'added', 'added as “Pal”'],
      [8, 'refused', 'not added: not an account ID, a trackmania.io player link or a display name'],
    ]);
    expect(await page.locator('[data-testid=add-players-result] > p').textContent()).toMatch(/4 added · 0 already there · 4 not added/);

    // Nicknames untouched: "Rival" as it was, no ID became anyone's nickname (me has none); Buddy had none, now has one.
    expect(nickOf(rival)).toBe('Rival');
    expect(nickOf(me)).toBeNull();
    expect(nickOf(linked!)).toBeNull();
    expect(nickOf(buddy!)).toBe('Buddy');
    for (const [accountId, nickname] of before) if (accountId !== buddy && accountId !== byName) expect(nickOf(accountId), accountId).toBe(nickname);
    expect(nickOf(byName!)).toBe('Pal');
    expect(store.players.list('Friends').map((p) => p.accountId).sort()).toEqual([rival, linked, buddy, byName].sort());

    await page.click('[data-testid=add-players-done]');
    await page.getByRole('link', { name: /^Players/ }).click();
    await page.getByRole('link', { name: 'Rival' }).waitFor();
    await page.getByRole('link', { name: 'Buddy' }).waitFor();
    // Renaming is on purpose, in one place: the player's pencil.
    await page.getByRole('button', { name: 'Change the nickname of Rival' }).click();
    await page.fill('[data-testid=nickname]', 'Someone Else');
    await page.click('[data-testid=nickname-save]');
    await page.getByRole('link', { name: 'Someone Else' }).waitFor();
    expect(nickOf(rival)).toBe('Someone Else');
    // An empty nickname clears it: the player shows by their display name again.
    await page.getByRole('button', { name: 'Change the nickname of Buddy' }).click();
    expect(await page.inputValue('[data-testid=nickname]')).toBe('Buddy');
    await page.fill('[data-testid=nickname]', '  ');
    await page.click('[data-testid=nickname-save]');
    await page.getByRole('link', { name: 'Buddy' }).waitFor({ state: 'detached' });
    expect(nickOf(buddy!)).toBeNull();
  });

  it('turns a refusal by the contract into a sentence, never the validator\'s words', async () => {
    // The dialog never sends what the contract would refuse; a page that does (another client) still gets a sentence.
    const answer = await page.evaluate(async () => {
      const token = sessionStorage.getItem('trackwatch.token');
      const response = await fetch('/api/invoke', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'watchlists.addPlayers', input: { list: 'Friends', players: [{ accountId: 'x'.repeat(101) }] } }),
      });
      return (await response.json()) as { ok: boolean; error: { message: string } };
    });
    expect(answer).toMatchObject({ ok: false, error: { message: "Player 1's account ID is too long: at most 100 characters." } });
  });

  it('broke no rule of the page', () => {
    expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
  });
});
