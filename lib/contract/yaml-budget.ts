import { CST, Lexer } from 'yaml';

/**
 * A contract of 1,000 columns is about 40,000 YAML tokens. The yaml parser spends microseconds per
 * token, so this bound is what keeps any file's load well under a second, however it is built.
 */
export const MAX_YAML_TOKENS = 50_000;
/** A contract nests about 8 levels; the yaml composer recurses once per level, so this also keeps the stack safe. */
export const MAX_NESTING_DEPTH = 64;

export interface BudgetProblem {
  readonly code: 'too_large' | 'too_deep';
  readonly offset: number;
  readonly message: string;
}

/**
 * Measures a YAML text with yaml's own lexer before anything builds a tree. The lexer is a flat
 * loop that knows exactly what is a quote, a comment or a flow bracket, whereas the parser holds
 * a frame per open collection (a gigabyte for 500,000 `[`) and the composer recurses per level.
 * It stops at the first bound exceeded, so measuring a hostile file costs at most the budget.
 */
export function checkYamlBudget(text: string): BudgetProblem | undefined {
  const nesting = new NestingTracker();
  let tokens = 0;
  let offset = 0;
  let scalarNext = false;
  for (const lexeme of new Lexer().lex(text)) {
    if (++tokens > MAX_YAML_TOKENS) {
      return { code: 'too_large', offset, message: `the file has more than ${MAX_YAML_TOKENS} YAML tokens; a contract needs far fewer` };
    }
    // The lexer announces each scalar with a marker; the lexeme after it is the scalar's text, whatever it looks like.
    const type: string = scalarNext ? 'content' : CST.tokenType(lexeme) ?? 'content';
    scalarNext = type === 'scalar';
    const depth = nesting.see(type, lexeme, offset);
    if (depth > MAX_NESTING_DEPTH) {
      return { code: 'too_deep', offset, message: `the document nests more than ${MAX_NESTING_DEPTH} levels deep; a contract needs far fewer` };
    }
    if (!MARKERS.has(type)) offset += lexeme.length;
  }
  return undefined;
}

/** Lexemes the lexer inserts that are not in the text, so they take no room. */
const MARKERS = new Set(['scalar', 'doc-mode', 'flow-error-end']);
const CONTENT = new Set(['content', 'single-quoted-scalar', 'double-quoted-scalar', 'alias', 'anchor', 'tag', 'block-scalar-header']);

interface OpenBlock {
  readonly column: number;
  readonly sequence: boolean;
}

/**
 * An upper bound of the collection depth at each token: flow brackets count one level each, and
 * block collections are tracked by the column they start at, as YAML's indentation rules have it.
 * Over-counting an odd layout is harmless; the bound is far above what a contract needs.
 */
class NestingTracker {
  private flow = 0;
  private readonly blocks: OpenBlock[] = [];
  private lineStart = 0;
  /** The column of the node that started on this line after the last indicator: a key, if a `:` follows. */
  private nodeColumn: number | undefined;

  see(type: string, lexeme: string, offset: number): number {
    const column = offset - this.lineStart;
    if (type === 'newline') this.startLine(offset + lexeme.length);
    else if (type === 'flow-map-start' || type === 'flow-seq-start') this.openFlow(column);
    else if (type === 'flow-map-end' || type === 'flow-seq-end') this.flow = Math.max(0, this.flow - 1);
    else if (type === 'doc-start' || type === 'doc-end') this.blocks.length = this.flow = 0;
    else if (this.flow === 0 && type === 'seq-item-ind') this.openBlock(column, true);
    else if (this.flow === 0 && type === 'explicit-key-ind') this.openBlock(column, false);
    else if (this.flow === 0 && type === 'map-value-ind') this.openBlock(this.nodeColumn ?? column, false);
    else if (CONTENT.has(type)) this.sawContent(column, lexeme, offset);
    return this.blocks.length + this.flow;
  }

  private startLine(start: number): void {
    this.lineStart = start;
    this.nodeColumn = undefined;
  }

  private openFlow(column: number): void {
    if (this.flow === 0) this.nodeColumn ??= column;
    this.flow++;
  }

  private sawContent(column: number, lexeme: string, offset: number): void {
    if (this.flow === 0) this.nodeColumn ??= column;
    // Multi-line scalars arrive as one lexeme; columns after them count from their last line.
    const newline = lexeme.lastIndexOf('\n');
    if (newline >= 0) this.lineStart = offset + newline + 1;
  }

  /** A block collection starts at `column`: it continues the one open there, or nests in it. */
  private openBlock(column: number, sequence: boolean): void {
    this.nodeColumn = undefined;
    for (let top = this.blocks.at(-1); top; top = this.blocks.at(-1)) {
      if (top.column < column) break;
      if (top.column === column && top.sequence === sequence) return;
      // A sequence may sit at its parent key's column; anything else at or left of a block closes it.
      if (top.column === column && sequence) break;
      this.blocks.pop();
    }
    this.blocks.push({ column, sequence });
  }
}
