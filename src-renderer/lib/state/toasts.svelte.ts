export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error' | 'pb';
  title: string;
  body?: string;
}

/** At most this many at once: a corner of the window, never half of it. */
const MAX_SHOWN = 4;

/** How long each kind stays: an error long enough to read twice, never for minutes (issue 17 §2.10). */
const LIFE_MS: Record<Toast['kind'], number> = { error: 20_000, pb: 9000, success: 5000, info: 5000 };

/**
 * Short messages in a corner that fade on their own; an error stays longest, and goes with the view it was about
 * when the player moves to another (the top bar keeps saying how the last sync ended).
 */
export class Toasts {
  #items = $state.raw<Toast[]>([]);
  #next = 1;

  get items(): Toast[] {
    return this.#items;
  }

  /** A toast with the title of one still showing replaces it: three saves make one "Saved", not a stack. */
  push(toast: Omit<Toast, 'id'>): number {
    const id = this.#next++;
    const others = this.#items.filter((t) => t.title !== toast.title);
    this.#items = [...others.slice(-(MAX_SHOWN - 1)), { ...toast, id }];
    setTimeout(() => this.dismiss(id), LIFE_MS[toast.kind]);
    return id;
  }

  /** The player moved to another view: the errors shown until now were about the one left behind. */
  leftView(): void {
    if (this.#items.some((t) => t.kind === 'error')) this.#items = this.#items.filter((t) => t.kind !== 'error');
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((t) => t.id !== id);
  }
}
