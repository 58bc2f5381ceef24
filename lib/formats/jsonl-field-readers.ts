import { BatchValues } from './csv-field-readers.js';
import { jsonValue } from './json-object-bytes.js';
import type { UnparsedField } from './table-file.js';

/**
 * One requested key's values across a batch of JSON lines: from a member's token bytes (the
 * common case, see json-object-bytes.ts) or from a value JSON.parse made (lines that needed it).
 * ParsedValues (text-parsed-values.ts) is one: values parsed by the contract type.
 */
export interface JsonFieldReader {
  readonly output: 'values' | 'parsed' | 'hashes';
  takeJson(b: Buffer, kind: number, start: number, end: number, ascii: boolean): void;
  /** A value JSON.parse made, or undefined for a key the line does not have. */
  byRules(value: unknown): void;
  /** A line that could not be read. */
  skip(): void;
  flush(): ArrayLike<unknown>;
  takeUnparsed?(): UnparsedField[];
}

/** The JSON values themselves, undefined where the key is absent: what the engine's JSON rules read. */
export class JsonValues implements JsonFieldReader {
  readonly output = 'values';
  private readonly values: BatchValues;

  constructor(batchRows: number) {
    this.values = new BatchValues(batchRows);
  }

  takeJson(b: Buffer, kind: number, start: number, end: number, ascii: boolean): void {
    this.values.push(jsonValue(b, kind, start, end, ascii));
  }

  byRules(value: unknown): void {
    this.values.push(value);
  }

  skip(): void {
    this.values.push(undefined);
  }

  flush(): ArrayLike<unknown> {
    return this.values.flush();
  }
}
