import type { Node } from 'yaml';
import { isOrderedType, isTemporalType, parseColumnType } from '../contract/column-type.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportLog } from './import-log.js';

/**
 * Sets a rule on a draft column when the column's type can carry it; otherwise the rule is kept
 * as a comment with a warning. Shared by every importer, so "enum on an integer column" is
 * handled alike whatever the source.
 */
export class ColumnRules {
  constructor(private readonly log: ImportLog, private readonly column: DraftColumn, private readonly index: number, private readonly path: string) {}

  private get kind(): string | undefined {
    return parseColumnType(this.column.type)?.kind;
  }

  /** `key` is the rule's key on the column (`enum`), or the full path of a test that states it. */
  private refuse(key: string, node: Node | null | undefined, what: string): void {
    const path = key.startsWith(`${this.path}.`) ? key : `${this.path}.${key}`;
    this.log.notEnforced(path, node, { column: this.index }, `${what} (the column is ${this.column.type})`);
  }

  enumOf(values: (string | number)[], key: string, node: Node | null | undefined): void {
    if (this.kind === 'string') this.column.enum = values.map(String);
    else this.refuse(key, node, `allowed values [${values.join(', ')}]: enum applies to string columns`);
  }

  bound(which: 'min' | 'max', value: number | bigint | string, key: string, node: Node | null | undefined): void {
    const type = parseColumnType(this.column.type);
    if (type && isOrderedType(type)) this.column[which] = value;
    else this.refuse(key, node, `${which} ${value}: bounds apply to numeric, date or timestamp columns`);
  }

  pattern(pattern: string, key: string, node: Node | null | undefined): void {
    if (this.kind === 'string') this.column.pattern = pattern;
    else this.refuse(key, node, `pattern ${JSON.stringify(pattern)}: patterns apply to string columns`);
  }

  length(which: 'min_length' | 'max_length', value: number, key: string, node: Node | null | undefined): void {
    if (this.kind === 'string') this.column[which] = value;
    else this.refuse(key, node, `${which} ${value}: lengths apply to string columns`);
  }

  notInFuture(key: string, node: Node | null | undefined): void {
    const type = parseColumnType(this.column.type);
    if (type && isTemporalType(type)) this.column.not_in_future = true;
    else this.refuse(key, node, 'not in the future: applies to date and timestamp columns');
  }

  requiredWhen(column: string, values: (string | number | boolean)[]): void {
    this.column.required_when = { column, in: values };
  }
}
