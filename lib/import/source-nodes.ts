import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { YamlReader } from '../contract/yaml-reader.js';

/**
 * Lenient access to a foreign document's nodes: a source file follows someone else's format, so
 * reading it never reports an unknown key; the importer decides what each key means.
 */
export class SourceNodes {
  constructor(readonly reader: YamlReader) {}

  get root(): Node | null {
    return this.reader.resolve(this.reader.root);
  }

  /** The value node under `key` of a mapping, or undefined when absent or not a mapping. */
  child(node: Node | null | undefined, key: string): Node | null | undefined {
    const map = this.reader.resolve(node);
    if (!map || !isMap(map)) return undefined;
    const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
    return pair ? this.reader.resolve(pair.value as Node | null) : undefined;
  }

  /** The key node of `key`, to place a problem on the key rather than its value. */
  keyNode(node: Node | null | undefined, key: string): Node | undefined {
    const map = this.reader.resolve(node);
    if (!map || !isMap(map)) return undefined;
    return map.items.find((p) => isScalar(p.key) && String(p.key.value) === key)?.key as Node | undefined;
  }

  keys(node: Node | null | undefined): string[] {
    const map = this.reader.resolve(node);
    return map && isMap(map) ? map.items.filter((p) => isScalar(p.key)).map((p) => String((p.key as { value: unknown }).value)) : [];
  }

  isMap(node: Node | null | undefined): boolean {
    const resolved = this.reader.resolve(node);
    return resolved !== null && isMap(resolved);
  }

  /** A scalar's value, or undefined for anything else. */
  value(node: Node | null | undefined): unknown {
    const resolved = this.reader.resolve(node);
    return resolved && isScalar(resolved) ? resolved.value : undefined;
  }

  text(node: Node | null | undefined): string | undefined {
    const value = this.value(node);
    return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
  }

  number(node: Node | null | undefined): number | undefined {
    const value = this.value(node);
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  }

  /**
   * A bound as written: a whole number past 2^53 as a bigint from its digits (a double would round
   * 9007199254740993 to …992), another number as itself, else the text (a date).
   */
  bound(node: Node | null | undefined): number | bigint | string | undefined {
    const number = this.number(node);
    if (number === undefined) return this.text(node);
    const resolved = this.reader.resolve(node);
    const source = resolved && isScalar(resolved) && typeof resolved.source === 'string' ? resolved.source.trim() : '';
    return !Number.isSafeInteger(number) && /^[+-]?\d+$/.test(source) ? BigInt(source) : number;
  }

  items(node: Node | null | undefined): (Node | null)[] {
    const seq = this.reader.resolve(node);
    return seq && isSeq(seq) ? seq.items.map((item) => this.reader.resolve(item as Node | null)) : [];
  }

  isList(node: Node | null | undefined): boolean {
    const resolved = this.reader.resolve(node);
    return resolved !== null && isSeq(resolved);
  }

  /** A list of scalars (strings or numbers); undefined when any item is not one. */
  scalars(node: Node | null | undefined): (string | number)[] | undefined {
    if (!this.isList(node)) return undefined;
    const values = this.items(node).map((item) => this.value(item));
    return values.every((v) => typeof v === 'string' || typeof v === 'number') ? (values as (string | number)[]) : undefined;
  }

  strings(node: Node | null | undefined): string[] | undefined {
    if (typeof this.value(node) === 'string') return [this.value(node) as string];
    const values = this.scalars(node);
    return values?.map(String);
  }
}
