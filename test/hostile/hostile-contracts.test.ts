import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { MAX_NESTING_DEPTH, MAX_YAML_TOKENS } from '../../lib/contract/yaml-budget.js';
import { MAX_CONTRACT_BYTES, MAX_YAML_ERRORS } from '../../lib/contract/yaml-reader.js';
import { cpuTimed } from './cpu-time.js';

const FILE = 'contracts/orders.v1.yaml';
/** "Well under a second" on an idle machine; the bound leaves room for a busy one. */
const LOAD_BUDGET_MS = 1000;

const HEAD = 'name: orders\nversion: 1.0.0\nowner: { team: t, notify: [a@example.com] }\nproduces: { format: parquet }\n';
const SCHEMA = 'schema:\n  columns:\n    - { name: order_id, type: string }\n';

function load(text: string) {
  const { result, ms } = cpuTimed(() => parseContract(text, FILE));
  return { ...result, ms, codes: result.problems.map((p) => p.code) };
}

/** Repeats `unit` until the text would pass `bytes`. */
function fill(unit: string, bytes: number): string {
  return unit.repeat(Math.floor(bytes / unit.length));
}

function nestedMaps(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' leaf\n';
}

describe('a hostile contract is refused at load, at a position, in well under a second', () => {
  it.each([
    ['10,000 nested [', `${HEAD}description: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`, 'too_deep'],
    ['10,000 nested {', `${HEAD}description: ${'{'.repeat(10_000)}${'}'.repeat(10_000)}\n`, 'too_deep'],
    ['500,000 unclosed [', `description: ${'['.repeat(500_000)}`, 'too_deep'],
    ['nested [{a: [{a: ...', `a: ${'[{a: '.repeat(20_000)}`, 'too_deep'],
    ['10,000 compact block sequences - - -', `${'- '.repeat(10_000)}x\n`, 'too_deep'],
    ['10,000 compact explicit keys ? ? ?', `${'? '.repeat(10_000)}x\n`, 'too_deep'],
    ['200 levels of indented mappings', nestedMaps(200), 'too_deep'],
    ['a flood of commas', `name: [${fill(',', MAX_CONTRACT_BYTES - 10)}]`, 'too_large'],
    ['a flood of empty lines', fill('\n', MAX_CONTRACT_BYTES), 'too_large'],
    ['a flood of syntax errors', fill('}\n', MAX_CONTRACT_BYTES), 'too_large'],
    ['25,000 keys of one mapping', Array.from({ length: 25_000 }, (_, i) => `k${i}: v`).join('\n'), 'too_large'],
    ['a file over the size limit', `${HEAD}description: "${'x'.repeat(MAX_CONTRACT_BYTES)}"\n`, 'too_large'],
  ])('refuses %s', (_what, text, code) => {
    const { problems, contract, ms } = load(text);
    expect(contract).toBeUndefined();
    expect(problems).toEqual([expect.objectContaining({ code, severity: 'error', line: expect.any(Number), column: expect.any(Number) })]);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(1);
    expect(ms).toBeLessThan(LOAD_BUDGET_MS);
  });

  it('reports nesting at the first bracket past the limit and says what the limit is', () => {
    const text = `${HEAD}description: ${'['.repeat(10_000)}\n`;
    const [problem] = load(text).problems;
    expect(problem).toMatchObject({ code: 'too_deep', line: 5, column: 'description: '.length + MAX_NESTING_DEPTH });
    expect(problem?.message).toBe(`the document nests more than ${MAX_NESTING_DEPTH} levels deep; a contract needs far fewer`);
  });

  it('counts block nesting by indentation: the limit itself loads, one level more does not', () => {
    expect(load(nestedMaps(MAX_NESTING_DEPTH)).codes).not.toContain('too_deep');
    expect(load(nestedMaps(MAX_NESTING_DEPTH + 1)).codes).toEqual(['too_deep']);
  });

  it('does not count brackets inside quotes, comments, block scalars or plain values as nesting', () => {
    const brackets = '['.repeat(5000);
    const text = `${HEAD}${SCHEMA}description: |\n  ${brackets}\n# ${brackets}\nsla: { freshness_column: "${brackets}" }\n`;
    const { codes } = load(text);
    expect(codes).not.toContain('too_deep');
    expect(load(`${HEAD}description: a ${brackets}\n${SCHEMA}`).problems).toEqual([]);
  });

  it('refuses a billion-laughs document without expanding it', () => {
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 10; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const { codes, ms } = load(`${levels.join('\n')}\n`);
    expect(codes).toEqual(['too_many_aliases']);
    expect(ms).toBeLessThan(LOAD_BUDGET_MS);
  });

  it('reports thousands of repeated keys quickly (a set per mapping, not yaml\'s pairwise check)', () => {
    const text = `${HEAD}${SCHEMA}${Array.from({ length: 6000 }, () => 'status: active').join('\n')}\n`;
    const { problems, ms } = load(text);
    expect(problems.filter((p) => p.code === 'duplicate_key')).toHaveLength(5999);
    expect(problems[0]).toMatchObject({ code: 'duplicate_key', line: 9, column: 1, message: 'Map keys must be unique' });
    expect(ms).toBeLessThan(LOAD_BUDGET_MS);
  });

  it('reports the first YAML errors of a broken file and counts the rest in one more problem', () => {
    const { problems, ms } = load(`name: [${','.repeat(MAX_YAML_TOKENS - 100)}]`);
    expect(problems).toHaveLength(MAX_YAML_ERRORS + 1);
    expect(problems.at(-1)?.message).toMatch(/^and \d+ more YAML errors from here on$/);
    expect(ms).toBeLessThan(LOAD_BUDGET_MS);
  });

  it('loads a legitimate contract of 1,000 columns within the token budget', () => {
    const columns = Array.from({ length: 1000 }, (_, i) => `    - name: column_${i}\n      type: string\n      required: true\n      max_length: 64\n`).join('');
    const { problems, contract, ms } = load(`${HEAD}schema:\n  columns:\n${columns}`);
    expect(problems).toEqual([]);
    expect(contract?.schema.columns).toHaveLength(1000);
    expect(ms).toBeLessThan(LOAD_BUDGET_MS);
  });
});
