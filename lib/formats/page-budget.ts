import { formatBytes } from './parquet-limits.js';
import { UnreadableError } from './table-file.js';

/**
 * Bytes of decoded pages a row group's read may hold at once, across its columns: 256 MiB, half
 * of what a reader gets (about 512 MB), the rest being the runtime, the slice's values and the
 * garbage not yet collected. Pages are decoded whole (all but Snappy pages read in runs, see
 * streamed-page.ts), one per column at a time, so a wide group of big pages needs their sum;
 * a file needing more is refused, not decoded.
 */
export const PAGE_BUDGET_BYTES = 256 * 2 ** 20;

/**
 * Writers' pages are about 1 MiB, so a contract of 300 columns holds 300 MiB of them: what such
 * pages take is bounded by the contract's width, which its owner chose, not by the file. A page of
 * at most this size is never refused for the budget; only a bigger one, which the producer chose.
 */
export const ORDINARY_PAGE_BYTES = 8 * 2 ** 20;

/**
 * What the columns of one row group's read hold decoded, by what their page headers declare
 * (which every decoder holds a page to: see inflated-size.ts). A column holds its current data
 * page and its dictionary; taking a page over ORDINARY_PAGE_BYTES beside others more than the
 * budget leaves refuses the file, naming what is held, before the page is decompressed.
 */
export class PageBudget {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(readonly group: number, readonly limit: number = PAGE_BUDGET_BYTES) {}

  /** `holder` (a column, or its dictionary) now holds `bytes` in place of what it held. */
  hold(holder: string, bytes: number): void {
    const others = this.total - (this.held.get(holder) ?? 0);
    // A page alone over the budget is the page limit's to refuse (see checkDeclaredSize), in its words.
    if (others > 0 && others + bytes > this.limit && bytes > ORDINARY_PAGE_BYTES) throw this.over(holder, bytes);
    this.held.set(holder, bytes);
    this.total = others + bytes;
  }

  release(holder: string): void {
    this.total -= this.held.get(holder) ?? 0;
    this.held.delete(holder);
  }

  private over(holder: string, bytes: number): UnreadableError {
    const largest = [...this.held].filter(([name]) => name !== holder).sort((a, b) => b[1] - a[1]).slice(0, 3);
    const beside = largest.length === 0 ? '' : ` beside ${largest.map(([name, size]) => `${name} (${formatBytes(size)})`).join(', ')}${this.held.size > 4 ? ' and more' : ''}`;
    return new UnreadableError(`row group ${this.group}: ${holder} needs a page of ${formatBytes(bytes)} decoded${beside}, over the ${formatBytes(this.limit)} budget a row group's pages may take at once; write the file with smaller pages (writers default to about 1 MiB; up to ${formatBytes(ORDINARY_PAGE_BYTES)} is always taken) or fewer columns a row group`);
  }
}
