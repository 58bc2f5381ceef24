import { FlatObject } from './json-object-bytes.js';
import { isBlank, parseObject } from './json-line-object.js';
import { JsonKeys } from './jsonl-keys.js';
import { duplicateKeyReason } from './json-duplicate-keys.js';
import type { JsonFieldReader } from './jsonl-field-readers.js';
import { ASCII, UNCHECKED, type LineSink, type TextKind } from './line-scanner.js';
import type { ColumnBatch, UnparsedField, UnreadableRow } from './table-file.js';

/**
 * Collects JSON lines into batches of the requested keys, as a LineSink. A line of the common
 * shape (a flat object, valid UTF-8) is read from its bytes, each member's value handed to its
 * key's reader as a token; any other line is read by JSON.parse (json-line.ts), whose messages
 * say why a line is unreadable. Both roads give the same values.
 */
export class JsonLinesBatchBuilder implements LineSink {
  readonly ready: ColumnBatch[] = [];
  private count = 0;
  private unreadable: UnreadableRow[] = [];
  private readonly object = new FlatObject();
  private readonly keys: JsonKeys;
  /** The line number a column's key was last found on, and at which member. */
  private readonly takenOn: Int32Array;
  private readonly memberOf: Int32Array;

  constructor(
    private readonly names: readonly string[],
    private readonly readers: readonly JsonFieldReader[],
    private readonly batchRows: number,
    private readonly maxLineBytes: number,
    /** The row index within the file of the first line added. */
    private rowStart = 0,
  ) {
    this.keys = new JsonKeys(new Map(names.map((name, slot) => [name, slot])));
    this.takenOn = new Int32Array(names.length);
    this.memberOf = new Int32Array(names.length);
  }

  line(lineNumber: number, b: Buffer, start: number, end: number, text: TextKind): void {
    if (isBlank(b, start, end)) return;
    if (text === UNCHECKED || !this.object.read(b, start, end, this.keys.hints)) this.parsed(b, start, end, lineNumber);
    else this.takeMembers(b, start, lineNumber, text === ASCII);
    this.rowAdded();
  }

  tooLong(lineNumber: number): void {
    this.addUnreadable(lineNumber, `line is longer than the ${this.maxLineBytes}-byte limit (maxLineBytes)`);
    this.rowAdded();
  }

  flush(): void {
    if (this.count === 0) return;
    const columns = new Map<string, ArrayLike<unknown>>();
    const parsed = new Map<string, UnparsedField[]>();
    this.names.forEach((name, slot) => {
      const reader = this.readers[slot]!;
      columns.set(name, reader.flush());
      if (reader.takeUnparsed) parsed.set(name, reader.takeUnparsed());
    });
    const batch: ColumnBatch = { rowStart: this.rowStart, rowCount: this.count, columns, keys: this.keys.takeSeen(), ...(parsed.size > 0 ? { parsed } : {}) };
    this.ready.push(this.unreadable.length > 0 ? { ...batch, unreadableRows: this.unreadable } : batch);
    this.rowStart += this.count;
    this.count = 0;
    this.unreadable = [];
  }

  takeReady(): ColumnBatch[] {
    return this.ready.splice(0);
  }

  /** Hands the object's members to their readers; a line that gives a key twice is unreadable. */
  private takeMembers(b: Buffer, start: number, lineNumber: number, ascii: boolean): void {
    const { object, takenOn, memberOf } = this;
    const duplicate = this.keys.duplicate(b, object, ascii, start);
    if (duplicate) return this.addUnreadable(lineNumber, duplicateKeyReason(duplicate));
    for (let m = 0; m < object.count; m++) {
      const slot = this.keys.slotOf(b, object, m, ascii);
      if (slot < 0) continue;
      takenOn[slot] = lineNumber;
      memberOf[slot] = m;
    }
    this.keys.markDistinct(object, ascii);
    for (let slot = 0; slot < this.readers.length; slot++) {
      const reader = this.readers[slot]!;
      if (takenOn[slot] !== lineNumber) reader.byRules(undefined);
      else {
        const m = memberOf[slot]!;
        reader.takeJson(b, object.valueKinds[m]!, object.valueStarts[m]!, object.valueEnds[m]!, ascii);
      }
    }
  }

  /** A line JSON.parse reads: its values, or why it is no row. */
  private parsed(b: Buffer, start: number, end: number, lineNumber: number): void {
    const parsed = parseObject(b.subarray(start, end), lineNumber);
    if (typeof parsed === 'string') return this.addUnreadable(lineNumber, parsed);
    this.names.forEach((name, slot) => this.readers[slot]!.byRules(Object.hasOwn(parsed, name) ? parsed[name] : undefined));
    for (const key of Object.keys(parsed)) this.keys.add(key);
  }

  private addUnreadable(line: number, reason: string): void {
    this.unreadable.push({ row: this.rowStart + this.count, line, reason });
    for (const reader of this.readers) reader.skip();
  }

  private rowAdded(): void {
    if (++this.count === this.batchRows) this.flush();
  }
}
