export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error' | 'pb';
  title: string;
  body?: string;
}

/** At most this many at once: a corner of the window, never half of it. */
const MAX_SHOWN = 4;

/** Short messages in a corner; errors stay until dismissed, the rest fade after a few seconds. */
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
    if (toast.kind !== 'error') setTimeout(() => this.dismiss(id), toast.kind === 'pb' ? 9000 : 5000);
    return id;
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((t) => t.id !== id);
  }
}
