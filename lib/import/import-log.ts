import type { Node } from 'yaml';
import type { ContractProblem } from '../contract/problems.js';
import type { YamlReader } from '../contract/yaml-reader.js';
import type { Note, NoteTarget } from './import-draft.js';

/**
 * What an import found, as data: positioned problems (on the source file) and the comments the
 * written contract carries. A rule the gate cannot enforce is both a warning and a comment, so it
 * is never dropped in silence: the warning for whoever runs the import, the comment for whoever
 * reads the contract later.
 */
export class ImportLog {
  readonly notes: Note[] = [];

  constructor(readonly reader: YamlReader) {}

  get problems(): readonly ContractProblem[] {
    return this.reader.problems;
  }

  get hasErrors(): boolean {
    return this.reader.hasErrors;
  }

  /** The source cannot be converted here: `message` says what was expected and how to fix it. */
  error(path: string, node: Node | null | undefined, message: string): void {
    this.reader.report('not_convertible', path, node, message);
  }

  /** A rule or setting the gate does not carry: a warning on the source and a comment in the contract. */
  notEnforced(path: string, node: Node | null | undefined, target: NoteTarget, what: string): void {
    this.reader.report('not_enforced', path, node, `${what} is not enforced by contract-gate; it is kept as a comment`, 'warning');
    this.note(target, `not enforced: ${what}`);
  }

  /** A value the source does not give, written as a placeholder or a default. */
  placeholder(path: string, node: Node | null | undefined, target: NoteTarget, message: string): void {
    this.reader.report('placeholder', path, node, message, 'warning');
    this.note(target, `TODO: ${message}`);
  }

  /** Whether a TODO is noted at `key` already: a second, vaguer one for the same gap is noise. */
  hasTodo(key: string): boolean {
    return this.notes.some((n) => 'key' in n.target && n.target.key === key && n.text.startsWith('TODO:'));
  }

  /** A comment that needs no warning: how a source value was translated. */
  note(target: NoteTarget, text: string): void {
    this.notes.push({ target, text });
  }
}
