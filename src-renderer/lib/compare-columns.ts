// Which players the compare grid shows as columns: as many as fit its width, me always among them, the others a page
// at a time. The grid never scrolls sideways (issue 11); a map's page ranks every watched player.

/** The grid's column widths in pixels. */
export interface GridWidths {
  /** The map column at its narrowest (it widens up to `mapWidest` when there is room). */
  map: number;
  mapWidest: number;
  /** A player's column at its narrowest: a PB and its delta, the totals' medal counts on one line. */
  cell: number;
  /** "My gap". */
  gap: number;
  /** The link to the map's page, for the players not shown. */
  more: number;
  /** The map's world record (holder and result), when the list's maps have one. */
  worldRecord: number;
  /** The grid's vertical scrollbar (app.css ::-webkit-scrollbar) and its border. */
  scrollbar: number;
}

/** The view's CSS reads its widths from here, so the count of columns and the layout agree. */
export const GRID_WIDTHS: Readonly<GridWidths> = { map: 196, mapWidest: 320, cell: 136, gap: 96, more: 36, worldRecord: 88, scrollbar: 12 };

/** How many player columns fit in `width` pixels beside the map, gap and link columns (and the WR's): at least one. */
export function columnsThatFit(width: number, widths: GridWidths = GRID_WIDTHS, worldRecord = false): number {
  const room = width - widths.map - widths.gap - widths.more - widths.scrollbar - (worldRecord ? widths.worldRecord : 0);
  return Math.max(1, Math.floor(room / widths.cell));
}

export interface ColumnPage {
  /** Indexes into the table's players: me first (when the list has one), then this page of the others. */
  columns: number[];
  /** The others, every player but me, counted from 1: this page shows `first` to `last` of `others`. */
  first: number;
  last: number;
  others: number;
  /** Where the previous and next pages start (an index among the others); null at either end. */
  previous: number | null;
  next: number | null;
}

/**
 * The columns shown when `fit` of them fit: me, then the page of the others holding the one at `start` (so the player
 * being looked at stays on screen when the window is resized). With room for all, every player shows.
 */
export function pageColumns(players: number, me: number | null, fit: number, start: number): ColumnPage {
  const others = Array.from({ length: players }, (_, i) => i).filter((i) => i !== me);
  const mine = me !== null && me >= 0 && me < players ? [me] : [];
  const perPage = Math.max(1, fit - mine.length);
  const at = Math.min(Math.max(0, Math.floor(start)), Math.max(0, others.length - 1));
  const first = Math.floor(at / perPage) * perPage;
  const shown = others.slice(first, first + perPage);
  return {
    columns: [...mine, ...shown],
    first: shown.length === 0 ? 0 : first + 1,
    last: first + shown.length,
    others: others.length,
    previous: first > 0 ? Math.max(0, first - perPage) : null,
    next: first + perPage < others.length ? first + perPage : null,
  };
}
