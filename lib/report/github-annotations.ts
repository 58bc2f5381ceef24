import type { ContractProblem } from '../contract/problems.js';

/**
 * GitHub Actions workflow commands, which the runner turns into annotations on the pull
 * request's files: `::error file=<path>,line=<n>,col=<c>,title=<rule>::<message>`.
 */
export interface Annotation {
  readonly level: 'error' | 'warning' | 'notice';
  readonly file: string;
  readonly line: number;
  readonly col?: number;
  readonly title: string;
  readonly message: string;
}

export function formatAnnotation(annotation: Annotation): string {
  const { level, file, line, col, title, message } = annotation;
  const properties = [`file=${escapeProperty(file)}`, `line=${line}`, ...(col === undefined ? [] : [`col=${col}`]), `title=${escapeProperty(title)}`];
  return `::${level} ${properties.join(',')}::${escapeData(message)}`;
}

export function formatAnnotations(annotations: readonly Annotation[]): string {
  return annotations.map((a) => `${formatAnnotation(a)}\n`).join('');
}

/** The runner reads a command up to the line's end, so line ends and `%` itself are %-encoded. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property also ends at `,` and the properties at `:`, so those are encoded too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A lint problem where the editor shows it; the rule id is the title, the dotted key leads the message. */
export function problemAnnotation(problem: ContractProblem): Annotation {
  const message = problem.path ? `${problem.path}: ${problem.message}` : problem.message;
  return { level: problem.severity, file: problem.file, line: problem.line, col: problem.column, title: problem.code, message };
}
