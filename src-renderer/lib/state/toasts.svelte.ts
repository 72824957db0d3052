export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error' | 'pb';
  title: string;
  body?: string;
}

/** Short messages in a corner; errors stay until dismissed, the rest fade after a few seconds. */
export class Toasts {
  #items = $state.raw<Toast[]>([]);
  #next = 1;

  get items(): Toast[] {
    return this.#items;
  }

  push(toast: Omit<Toast, 'id'>): number {
    const id = this.#next++;
    this.#items = [...this.#items.slice(-4), { ...toast, id }];
    if (toast.kind !== 'error') setTimeout(() => this.dismiss(id), toast.kind === 'pb' ? 9000 : 5000);
    return id;
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((t) => t.id !== id);
  }
}
