// Counts and dates as a player reads them on the command line: "1 map", "3 maps", "24 Nov 2026, 14:05".

/** `plural(1, 'map')` → "1 map"; `plural(3, 'map')` → "3 maps"; irregular ones give their plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

const DATE_TIME_STYLE = { dateStyle: 'medium', timeStyle: 'short' } as const;
const DATE_TIME = new Intl.DateTimeFormat('en-GB', DATE_TIME_STYLE);
const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

/** An ISO time in the machine's time zone (or `timeZone`, an IANA name), readable: "24 Nov 2026, 14:05"; '' for none. */
export function localDateTime(iso: string | null | undefined, timeZone?: string): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(at)) return '';
  return (timeZone === undefined ? DATE_TIME : new Intl.DateTimeFormat('en-GB', { ...DATE_TIME_STYLE, timeZone })).format(at);
}

/** An ISO time's local date: "24 Nov 2026"; '' for none. */
export function localDate(iso: string | null | undefined): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(at) ? '' : DATE.format(at);
}
