// Which list an add goes to (cli/lists.ts): a list is made only on purpose, and a slip in its name is caught.
import { describe, expect, it } from 'vitest';
import { listToAddTo, nearNames } from '../../../src-main/cli/lists.ts';

describe('nearNames', () => {
  it('finds a slip of a letter, a swap, or another case; not a different name', () => {
    expect(nearNames('Comunity', ['Community', 'Default'])).toEqual(['Community']);
    expect(nearNames('Cmomunity', ['Community'])).toEqual(['Community']);
    expect(nearNames('default', ['Default'])).toEqual(['Default']);
    expect(nearNames('Rivals', ['Demo', 'Fall 2026'])).toEqual([]);
    // Short names allow one edit only: "Pro" is not a slip for "Demo".
    expect(nearNames('Pro', ['Demo'])).toEqual([]);
  });
});

describe('listToAddTo', () => {
  const script = { interactive: false, command: 'maps add' };
  const terminal = { interactive: true, command: 'maps add' };

  it('with no --list: "Default", else the only list, else a new "Default"; several lists need a name', () => {
    expect(listToAddTo(['Default', 'Demo'], undefined, script)).toEqual({ name: 'Default', create: false });
    expect(listToAddTo(['Demo'], undefined, script)).toEqual({ name: 'Demo', create: false });
    expect(listToAddTo([], undefined, script)).toEqual({ name: 'Default', create: true });
    expect(() => listToAddTo(['Demo', 'Fall'], undefined, terminal)).toThrow('there are several lists ("Demo", "Fall"): name one with --list');
  });

  it('a named new list: made at a terminal, refused in a script unless --create, refused near an existing name', () => {
    expect(listToAddTo(['Demo'], 'Rivals', terminal)).toEqual({ name: 'Rivals', create: true });
    expect(() => listToAddTo(['Demo'], 'Rivals', script)).toThrow('there is no list "Rivals" (the lists are "Demo"); to make it, run `trackwatch maps add` with --create.');
    expect(listToAddTo(['Demo'], 'Rivals', { ...script, create: true })).toEqual({ name: 'Rivals', create: true });
    expect(() => listToAddTo(['Community'], 'Comunity', terminal)).toThrow('there is no list "Comunity"; did you mean "Community"? To make a new list "Comunity", add --create.');
    expect(listToAddTo(['Community'], 'Comunity', { ...terminal, create: true })).toEqual({ name: 'Comunity', create: true });
    expect(listToAddTo(['Community'], ' Community ', script)).toEqual({ name: 'Community', create: false });
  });
});
