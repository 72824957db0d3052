import { getContext } from 'svelte';
import type { Session } from './state/session.svelte.ts';

const KEY = Symbol('session');

/** The context map handed to mount(), so every component (App included) finds the session. */
export function sessionContext(session: Session): Map<symbol, unknown> {
  return new Map([[KEY, session]]);
}

export function useSession(): Session {
  const session = getContext<Session | undefined>(KEY);
  if (!session) throw new Error('useSession() outside <App>');
  return session;
}
