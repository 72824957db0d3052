// The compare view's state: the table from main, then filter, sort and totals derived from it (never in an effect).
import { SvelteMap } from 'svelte/reactivity';
import type { CompareTable } from '../../../src-main/contract/index.ts';
import { GAP_LIMITS } from '../../../src-main/shared/leaderboard.ts';
import { buildCompareModel, filterRows, sortRows, totalsOf } from '../compare.ts';
import type { CompareFilter, Show, Sort, SortBy } from '../compare.ts';
import { columnsThatFit, GRID_WIDTHS, pageColumns } from '../compare-columns.ts';

/** Per list, the page of players last shown: back from a map's page, the same columns show. */
const columnStarts = new SvelteMap<string, number>();

/** The gap "near the next medal" counts in the totals when no filter picks one. */
const DEFAULT_NEAR = 1;

export class CompareState {
  #table = $state.raw<CompareTable | undefined>();
  text = $state('');
  show = $state<Show>('all');
  /** Index into GAP_LIMITS: only maps where my next medal is within it; null for every map. */
  near = $state<number | null>(null);
  sort = $state.raw<Sort>({ key: { by: 'table' }, descending: false });
  /** The grid's width in pixels, as the view measures it (it follows the window). */
  width = $state(0);

  /** Whether the grid has a "World record" column: some map of the list has its WR read. */
  readonly hasWorldRecords = $derived(this.#table?.rows.some((r) => r.worldRecord !== undefined) ?? false);
  /** What the line under each PB says: its delta to me, or to the map's world record. */
  under = $state<'me' | 'worldRecord'>('me');
  /** The WR gets a column of its own only where it costs no player a column (else the map's line says it). */
  readonly worldRecordColumn = $derived(
    this.hasWorldRecords && (columnsThatFit(this.width, GRID_WIDTHS, true) >= Math.min(columnsThatFit(this.width), this.#table?.players.length ?? 0)),
  );
  readonly columns = $derived(
    pageColumns(this.#table?.players.length ?? 0, this.#table?.me ?? null, columnsThatFit(this.width, GRID_WIDTHS, this.worldRecordColumn), this.columnStart),
  );
  /** Sorted by a player whose column is not shown, the rows keep the table's order: a sort is one the player can see. */
  readonly shownSort: Sort = $derived(
    this.sort.key.by === 'player' && !this.columns.columns.includes(this.sort.key.column) ? { key: { by: 'table' }, descending: false } : this.sort,
  );

  readonly model = $derived(this.#table ? buildCompareModel(this.#table) : []);
  readonly nearLimit = $derived(GAP_LIMITS[this.near ?? DEFAULT_NEAR]!);
  readonly filter: CompareFilter = $derived({ text: this.text, show: this.show, near: this.near === null ? null : this.nearLimit });
  readonly filtered = $derived(filterRows(this.model, this.filter, this.#table?.me ?? null));
  readonly rows = $derived(sortRows(this.filtered, this.shownSort));
  // Over the rows shown, whatever their order: a sort does not total them again.
  readonly totals = $derived(totalsOf(this.filtered, this.#table?.players.length ?? 0, this.nearLimit));

  /** Among the players other than me, the first one shown: its page of columns shows. */
  get columnStart(): number {
    return columnStarts.get(this.#table?.list ?? '') ?? 0;
  }

  set columnStart(start: number) {
    if (this.#table) columnStarts.set(this.#table.list, start);
  }

  get table(): CompareTable | undefined {
    return this.#table;
  }

  set table(table: CompareTable | undefined) {
    this.#table = table;
  }

  /** Same key again flips the direction; a new key starts ascending (best first). */
  sortBy(key: SortBy): void {
    const same = JSON.stringify(key) === JSON.stringify(this.sort.key);
    this.sort = { key, descending: same ? !this.sort.descending : false };
  }

  isSortedBy(key: SortBy): 'ascending' | 'descending' | 'none' {
    if (JSON.stringify(key) !== JSON.stringify(this.shownSort.key)) return 'none';
    return this.shownSort.descending ? 'descending' : 'ascending';
  }

  /** The previous or next page of players, when there is one. */
  pageColumns(to: 'previous' | 'next'): void {
    const start = this.columns[to];
    if (start !== null) this.columnStart = start;
  }
}
