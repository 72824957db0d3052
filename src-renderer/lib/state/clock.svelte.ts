// One clock for every relative time in the window ("synced 2 min ago"): the sidebar and the page read the same
// moment, and it moves on its own, so neither lags the other nor stays at "just now" (issue 17 §2.10).

/** How often relative times move on: they count in minutes at the finest. */
export const CLOCK_TICK_MS = 15_000;

/** Started by the first read: a window that shows no relative time keeps no timer. */
let ticking = false;

class Clock {
  #now = $state(Date.now());

  /** Now, as every relative time shows it; reading it (in a template or $derived) redraws on each tick. */
  get now(): number {
    if (!ticking) {
      ticking = true;
      setInterval(() => (this.#now = Date.now()), CLOCK_TICK_MS);
    }
    return this.#now;
  }

  /** Moves on at once (a sync just ended): what it changed reads "just now" everywhere together. */
  touch(): void {
    this.#now = Date.now();
  }
}

export const clock = new Clock();
