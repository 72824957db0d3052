// Counts and dates as a player reads them on the command line: "1 map", "3 maps", "24 Nov 2026, 14:05".

/** `plural(1, 'map')` → "1 map"; `plural(3, 'map')` → "3 maps"; irregular ones give their plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

/** An ISO time in the machine's time zone, readable: "24 Nov 2026, 14:05"; '' for none. */
export function localDateTime(iso: string | null | undefined): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(at) ? '' : DATE_TIME.format(at);
}

/** An ISO time's local date: "24 Nov 2026"; '' for none. */
export function localDate(iso: string | null | undefined): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(at) ? '' : DATE.format(at);
}
