import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSeq, parseDocument, type YAMLSeq } from 'yaml';
import { formatBound } from '../../lib/contract/temporal.js';
import { parseContract, type LoadResult } from '../../lib/contract/load-contract.js';
import type { ColumnSpec } from '../../lib/contract/model.js';
import { ODCS_DIR, ODCS_PRESENT } from './odcs-schema.js';

const EXAMPLES = join(ODCS_DIR, 'examples');
const GOLDEN = join('test', 'golden', 'odcs-examples.json');

/** What loading a file came to: the contract in brief, or every error; warnings either way. */
function outcome(result: LoadResult): Record<string, unknown> {
  const line = (p: LoadResult['problems'][number]) => `${p.line}:${p.column} [${p.code}] ${p.path}: ${p.message}`;
  const errors = result.problems.filter((p) => p.severity === 'error').map(line);
  const warnings = result.problems.filter((p) => p.severity === 'warning').map(line);
  const { contract } = result;
  const loaded = contract && {
    loaded: `${contract.name} ${contract.version.text} ${contract.status}${contract.sunset ? ` until ${contract.sunset}` : ''}, ${contract.produces.format} ${contract.produces.partition}`,
    columns: contract.schema.columns.map(describeColumn),
    grain: contract.schema.grain,
    sla: contract.sla ?? null,
  };
  return { ...(loaded ?? { rejected: errors }), warnings };
}

function describeColumn(column: ColumnSpec): string {
  const { name, typeText, type, required, unique, enum: values, pattern, minLength, maxLength, min, max } = column;
  const rules = [
    required ? 'required' : '', unique ? 'unique' : '',
    values ? `enum [${values.join(', ')}]` : '', pattern !== undefined ? `pattern /${pattern}/` : '',
    minLength !== undefined || maxLength !== undefined ? `length ${minLength ?? 0}..${maxLength ?? ''}` : '',
    min !== undefined || max !== undefined ? `range ${min === undefined ? '' : formatBound(min, type)}..${max === undefined ? '' : formatBound(max, type)}` : '',
  ];
  return [`${name}: ${typeText}`, ...rules.filter((r) => r !== '')].join(', ');
}

/**
 * The example with what ODCS examples never say and a gate must know — whom to page, the file
 * format, a dataset name, which object is the dataset — added as contractGate.* custom
 * properties, so the mapping of the rest is exercised on the official documents too.
 */
function withEssentials(text: string): string {
  const doc = parseDocument(text);
  if (!doc.has('name')) doc.set('name', 'example');
  const schema = doc.get('schema');
  const first = isSeq(schema) && schema.items.length > 1 ? (schema as YAMLSeq).getIn([0, 'name']) : undefined;
  const custom = [
    { property: 'contractGate.team', value: 'data-team' },
    { property: 'contractGate.notify', value: ['data-team@example.com'] },
    { property: 'contractGate.format', value: 'parquet' },
    ...(first === undefined ? [] : [{ property: 'contractGate.dataset', value: first }]),
  ];
  const existing = doc.get('customProperties');
  if (isSeq(existing)) custom.forEach((item) => existing.add(doc.createNode(item)));
  else doc.set('customProperties', custom);
  return doc.toString({ lineWidth: 0 });
}

// The official examples live beside the project in ../shared; a plain clone skips this suite.
describe.skipIf(!ODCS_PRESENT)('the official ODCS v3 examples', () => {
  it('each loads or is refused with positioned errors, matching the golden outcomes', () => {
    const outcomes: Record<string, unknown> = {};
    for (const name of readdirSync(EXAMPLES).filter((n) => n.endsWith('.yaml')).sort()) {
      const text = readFileSync(join(EXAMPLES, name), 'utf8');
      const asWritten = parseContract(text, name);
      const completed = parseContract(withEssentials(text), name);
      for (const result of [asWritten, completed]) {
        expect(result.contract !== undefined || result.problems.some((p) => p.severity === 'error')).toBe(true);
        for (const problem of result.problems) expect(problem.line).toBeGreaterThan(0);
      }
      outcomes[name] = { 'as written': outcome(asWritten), 'with contractGate essentials': outcome(completed) };
    }
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, `${JSON.stringify(outcomes, null, 2)}\n`);
    expect(Object.keys(outcomes).length).toBeGreaterThan(10);
    expect(outcomes).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')));
  });
});
