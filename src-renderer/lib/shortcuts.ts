import type { Route } from './routes.ts';

export interface Shortcut {
  keys: string[];
  /** How the keys go together: one after the other, held together, or either. */
  join?: 'then' | '+' | 'or';
  does: string;
}

/** Shown in the "?" dialog; App.svelte implements them. */
export const SHORTCUTS: Shortcut[] = [
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['/'], does: 'Filter the current view' },
  { keys: ['g', 'h'], join: 'then', does: 'Go to the overview' },
  { keys: ['g', 'm'], join: 'then', does: 'Go to the maps of this list (or of the last one viewed)' },
  { keys: ['g', 'p'], join: 'then', does: 'Go to the players of this list (or of the last one viewed)' },
  { keys: ['g', 'c'], join: 'then', does: 'Go to the compare view of this list (or of the last one viewed)' },
  { keys: ['g', 'r'], join: 'then', does: 'Go to replays' },
  { keys: ['g', 's'], join: 'then', does: 'Go to settings' },
  { keys: ['['], does: 'Previous list' },
  { keys: [']'], does: 'Next list' },
  { keys: ['Shift', 'S'], join: '+', does: 'Sync this list (or all lists)' },
  { keys: ['↑', '↓'], join: 'or', does: 'Move in a table (also j / k)' },
  { keys: ['Enter'], does: 'Open the selected row' },
  { keys: ['Esc'], does: 'Close a dialog, leave a field' },
];

/** The second key after `g`, and where it leads from the current list (if any). */
export function goTarget(key: string, list: string | null): Route | null {
  switch (key) {
    case 'h':
      return { name: 'home' };
    case 'r':
      return { name: 'replays' };
    case 's':
      return { name: 'settings' };
    case 'm':
      return list ? { name: 'list', list, tab: 'maps' } : null;
    case 'p':
      return list ? { name: 'list', list, tab: 'players' } : null;
    case 'c':
      return list ? { name: 'compare', list } : null;
    default:
      return null;
  }
}

/** Whether the second key after `g` leads into a list (and so needs one). */
export function needsList(key: string): boolean {
  return key === 'm' || key === 'p' || key === 'c';
}

/** Whether a key press belongs to a text field rather than to the app. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}
