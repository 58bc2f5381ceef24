import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { formatProblem } from '../../lib/contract/problems.js';
import { MAX_CONTRACT_BYTES } from '../../lib/contract/yaml-reader.js';

const FILE = 'contracts/orders.v1.yaml';

function yaml(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

/** Code, path and 1-based position of every problem, in the order the loader returns them. */
function problemsIn(text: string, file = FILE) {
  return parseContract(text, file).problems.map(({ code, path, line, column }) => ({ code, path, line, column }));
}

function messagesIn(text: string, file = FILE): string[] {
  return parseContract(text, file).problems.map((p) => p.message);
}

/** Lines 1-4 of most contracts below. */
const HEAD = [
  'name: orders',
  'version: 1.2.0',
  'owner: { team: orders-platform, notify: [oncall@example.com] }',
  'produces: { format: parquet }',
];

/** A contract whose `schema.columns` items start on line 7, each `{` in column 7; `rest` follows them. */
function withColumns(columns: string[], ...rest: string[]): string {
  return yaml(...HEAD, 'schema:', '  columns:', ...columns.map((column) => `    - ${column}`), ...rest);
}

/** Lines 5-7: a schema with one string column. */
const SCHEMA = ['schema:', '  columns:', '    - { name: order_id, type: string }'];

describe('parseContract: YAML-level problems', () => {
  it('reports a YAML syntax error at its position and nothing about the contract', () => {
    const text = yaml('name: orders', 'version: 1.2.0', 'owner:', '  team: orders-platform', ' notify: [oncall@example.com]');
    expect(problemsIn(text)).toEqual([{ code: 'yaml_syntax', path: '', line: 5, column: 1 }]);
    expect(messagesIn(text)[0]).toContain('same column');
    expect(parseContract(text, FILE).contract).toBeUndefined();
  });

  it('reports a key written twice in one mapping at the second one', () => {
    const text = yaml(...HEAD, 'name: shipments', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'duplicate_key', path: '', line: 5, column: 1 }]);
  });

  it('reports a key written twice inside a { } mapping', () => {
    const text = withColumns(['{ name: order_id, type: string, name: order_key }']);
    expect(problemsIn(text)).toEqual([{ code: 'duplicate_key', path: '', line: 7, column: 39 }]);
  });

  it('refuses a billion-laughs document for its number of aliases without expanding it', () => {
    const text = yaml(
      'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
    );
    expect(problemsIn(text)).toEqual([{ code: 'too_many_aliases', path: '', line: 1, column: 1 }]);
    expect(messagesIn(text)[0]).toBe('the file uses 18 aliases; at most 16 are allowed');
  });

  it('accepts a few aliases and reads through them', () => {
    const text = withColumns([
      '{ name: status, type: string, enum: &states [placed, cancelled] }',
      '{ name: refund, type: float64, required_when: { column: status, in: *states } }',
    ]);
    const { contract, problems } = parseContract(text, FILE);
    expect(problems).toEqual([]);
    expect(contract?.schema.columns[1]?.requiredWhen).toEqual({ column: 'status', in: ['placed', 'cancelled'] });
  });

  it('refuses a file over the size limit at 1:1 without parsing it', () => {
    const text = yaml(...HEAD, ...SCHEMA, `description: "${'x'.repeat(MAX_CONTRACT_BYTES)}"`);
    expect(problemsIn(text)).toEqual([{ code: 'too_large', path: '', line: 1, column: 1 }]);
    expect(messagesIn(text)[0]).toBe(`the file is ${text.length} bytes; a contract may be at most ${MAX_CONTRACT_BYTES}`);
  });

  it('measures the size limit in UTF-8 bytes, not characters', () => {
    const text = yaml(...HEAD, ...SCHEMA, `description: "${'é'.repeat(MAX_CONTRACT_BYTES / 2 + 1)}"`);
    expect(text.length).toBeLessThan(MAX_CONTRACT_BYTES);
    expect(problemsIn(text)).toEqual([{ code: 'too_large', path: '', line: 1, column: 1 }]);
  });

  it.each([
    ['an empty file', ''],
    ['a file with only a comment', '# yaml-language-server: $schema=./contract.schema.json\n'],
  ])('reports %s as a missing top-level mapping', (_what, text) => {
    expect(problemsIn(text)).toEqual([{ code: 'wrong_type', path: '', line: 1, column: 1 }]);
    expect(messagesIn(text)).toEqual(['expected a mapping at the top of the file, found nothing']);
  });
});

describe('parseContract: keys', () => {
  it('reports an unknown key with the closest known key as a hint', () => {
    const text = withColumns(['{ name: order_id, type: string, requird: true }']);
    expect(problemsIn(text)).toEqual([{ code: 'unknown_key', path: 'schema.columns[0].requird', line: 7, column: 39 }]);
    expect(messagesIn(text)).toEqual(['unknown key "requird"; did you mean "required"?']);
  });

  it('reports a misspelt top-level key as unknown and the key it stands for as missing', () => {
    const text = yaml(
      'name: orders',
      'version: 1.2.0',
      'owners: { team: orders-platform, notify: [oncall@example.com] }',
      'produces: { format: parquet }',
      ...SCHEMA,
    );
    expect(problemsIn(text)).toEqual([
      { code: 'missing_key', path: 'owner', line: 1, column: 1 },
      { code: 'unknown_key', path: 'owners', line: 3, column: 1 },
    ]);
    expect(messagesIn(text)).toEqual(['missing required key "owner"', 'unknown key "owners"; did you mean "owner"?']);
  });

  it('lists the known keys when no known key is close to an unknown one', () => {
    const text = yaml(...HEAD, ...SCHEMA, 'sla: { colour: blue }');
    expect(problemsIn(text)).toEqual([{ code: 'unknown_key', path: 'sla.colour', line: 8, column: 8 }]);
    expect(messagesIn(text)).toEqual([
      'unknown key "colour"; expected one of: schedule, arrival_by, timezone, partition_lag, grace_minutes, skip_dates, max_lag_hours, warn_lag_hours, freshness_column, min_rows, max_rows, volume_vs_history, severity',
    ]);
  });

  it('reports a missing top-level key at the start of the document', () => {
    const text = yaml('name: orders', 'version: 1.2.0', 'owner: { team: orders-platform, notify: [oncall@example.com] }', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'missing_key', path: 'produces', line: 1, column: 1 }]);
  });

  it('reports a missing nested key at the mapping that lacks it', () => {
    const text = yaml('name: orders', 'version: 1.2.0', 'owner: { team: orders-platform }', 'produces: { format: parquet }', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'missing_key', path: 'owner.notify', line: 3, column: 8 }]);
  });

  it('reports a key without a value inside { } just after the key, not at the top of the file', () => {
    const text = yaml('name: orders', 'version: 1.2.0', 'owner: { team, notify: [oncall@example.com] }', 'produces: { format: parquet }', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'wrong_type', path: 'owner.team', line: 3, column: 14 }]);
    expect(messagesIn(text)).toEqual(['expected a string, found nothing']);
  });
});

describe('parseContract: values', () => {
  it.each([
    ['a number as the name', yaml('name: 42', ...HEAD.slice(1), ...SCHEMA), 'name', 1, 7, 'expected a string, found number 42'],
    ['a list as the version', yaml('name: orders', 'version: [1, 2, 0]', ...HEAD.slice(2), ...SCHEMA), 'version', 2, 10, 'expected a single value, found a list'],
    [
      'a string as the owner',
      yaml('name: orders', 'version: 1.2.0', 'owner: orders-platform', 'produces: { format: parquet }', ...SCHEMA),
      'owner', 3, 8, 'expected a mapping, found "orders-platform"',
    ],
    ['a mapping as the columns', yaml(...HEAD, 'schema:', '  columns: { name: order_id, type: string }'), 'schema.columns', 6, 12, 'expected a list, found a mapping'],
    [
      'a string as a boolean',
      withColumns(['{ name: order_id, type: string, required: "yes" }']),
      'schema.columns[0].required', 7, 49, 'expected true or false, found "yes"',
    ],
    ['a fraction as a row count', yaml(...HEAD, ...SCHEMA, 'sla: { min_rows: 10.5 }'), 'sla.min_rows', 8, 18, 'expected a whole number, found number 10.5'],
  ])('reports %s as wrong_type, once, at the value', (_what, text, path, line, column, message) => {
    expect(problemsIn(text)).toEqual([{ code: 'wrong_type', path, line, column }]);
    expect(messagesIn(text)).toEqual([message]);
  });

  it('reports a name that is not a dataset name', () => {
    const text = yaml('name: Orders', ...HEAD.slice(1), ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'name', line: 1, column: 7 }]);
    expect(messagesIn(text)[0]).toContain('lower case letters');
  });

  it('reports a version that is not MAJOR.MINOR.PATCH, such as 1.2 which YAML reads as a number', () => {
    const text = yaml('name: orders', 'version: 1.2', ...HEAD.slice(2), ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'version', line: 2, column: 10 }]);
    expect(messagesIn(text)).toEqual(['expected a semantic version MAJOR.MINOR.PATCH such as 1.2.0, found 1.2: YAML reads the unquoted 1.2 as the number 1.2, not as text; quote the version and give all three parts: version: "1.2.0"']);
  });

  it('reports an unknown status with the closest status as a hint', () => {
    const text = yaml(...HEAD, 'status: deprecatd', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'status', line: 5, column: 9 }]);
    expect(messagesIn(text)).toEqual(['expected one of active, deprecated, retired, found "deprecatd"; did you mean "deprecated"?']);
  });

  it('reports a deprecated version without a sunset date at its status', () => {
    const text = yaml(...HEAD, 'status: deprecated', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'sunset_required', path: 'sunset', line: 5, column: 9 }]);
  });

  it('reports a sunset that is not a calendar date', () => {
    const text = yaml(...HEAD, 'status: deprecated', 'sunset: 2026-02-30', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'sunset', line: 6, column: 9 }]);
  });

  it('reports an invalid regular expression with the reason', () => {
    const text = withColumns(['{ name: order_id, type: string, pattern: "^(ord" }']);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_regex', path: 'schema.columns[0].pattern', line: 7, column: 48 }]);
    expect(messagesIn(text)[0]).toMatch(/^invalid regular expression: .*Unterminated group/);
  });

  it('reports a column type it does not know', () => {
    const text = withColumns(['{ name: order_id, type: strng }']);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'schema.columns[0].type', line: 7, column: 31 }]);
    expect(messagesIn(text)[0]).toMatch(/^unknown type "strng"; expected string, int32/);
  });

  it('reports an unquoted decimal(p,s) that a { } mapping split at its comma, with the fix', () => {
    const text = withColumns(['{ name: amount, type: decimal(12,2), required: true }']);
    expect(problemsIn(text)).toEqual([
      { code: 'invalid_value', path: 'schema.columns[0].type', line: 7, column: 29 },
      { code: 'unknown_key', path: 'schema.columns[0].2)', line: 7, column: 40 },
    ]);
    const messages = messagesIn(text);
    expect(messages[0]).toBe('"decimal(12" is a decimal(p,s) type split at its comma by a { } mapping; quote it, e.g. type: "decimal(12,2)"');
    expect(messages[1]).toContain('quote the type, e.g. type: "decimal(12,2)"');
  });

  it('accepts an unquoted decimal(p,s) outside { }', () => {
    const text = yaml(...HEAD, 'schema:', '  columns:', '    - name: amount', '      type: decimal(12,2)');
    const { contract, problems } = parseContract(text, FILE);
    expect(problems).toEqual([]);
    expect(contract?.schema.columns[0]?.type).toEqual({ kind: 'decimal', precision: 12, scale: 2 });
  });

  it('reports a partition template with an unknown placeholder', () => {
    const text = yaml(...HEAD.slice(0, 3), 'produces: { format: parquet, partition: "dt={date}" }', ...SCHEMA);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'produces.partition', line: 4, column: 41 }]);
    expect(messagesIn(text)).toEqual(['unknown placeholder {date}; expected {ds} or {hh}']);
  });
});

describe('parseContract: column rules', () => {
  it('reports enum on a non-string column at the key', () => {
    const text = withColumns(['{ name: qty, type: int32, enum: [1, 2] }']);
    expect(problemsIn(text)).toEqual([{ code: 'rule_not_for_type', path: 'schema.columns[0].enum', line: 7, column: 33 }]);
    expect(messagesIn(text)).toEqual(['"enum" applies to string columns, not to int32']);
  });

  it('reports min on a string column at the key', () => {
    const text = withColumns(['{ name: code, type: string, min: "a" }']);
    expect(problemsIn(text)).toEqual([{ code: 'rule_not_for_type', path: 'schema.columns[0].min', line: 7, column: 35 }]);
    expect(messagesIn(text)).toEqual(['"min" applies to numeric, date or timestamp columns, not to string']);
  });

  it.each([
    ['numbers', '{ name: qty, type: int32, min: 10, max: 1 }', 38],
    ['dates', '{ name: day, type: date, min: 2024-02-01, max: 2024-01-31 }', 37],
    ['timestamps', '{ name: at, type: timestamp, min: "2024-01-02T00:00:00Z", max: 2024-01-01 }', 41],
  ])('reports min greater than max for %s at min', (_what, column, at) => {
    expect(problemsIn(withColumns([column]))).toEqual([{ code: 'min_greater_than_max', path: 'schema.columns[0].min', line: 7, column: at }]);
  });

  it('compares timestamp bounds as instants, so an offset counts', () => {
    const ordered = withColumns(['{ name: at, type: timestamp, min: "2024-01-01T01:00:00+01:00", max: "2024-01-01T00:30:00Z" }']);
    expect(problemsIn(ordered)).toEqual([]);
    const reversed = withColumns(['{ name: at, type: timestamp, min: "2024-01-01T00:30:00Z", max: "2024-01-01T01:00:00+01:00" }']);
    expect(problemsIn(reversed)).toEqual([{ code: 'min_greater_than_max', path: 'schema.columns[0].min', line: 7, column: 41 }]);
  });

  it('reports a bound that is not a timestamp', () => {
    const text = withColumns(['{ name: at, type: timestamp, max: "yesterday" }']);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'schema.columns[0].max', line: 7, column: 41 }]);
  });

  it('reports min_length greater than max_length at min_length', () => {
    const text = withColumns(['{ name: code, type: string, min_length: 5, max_length: 3 }']);
    expect(problemsIn(text)).toEqual([{ code: 'min_greater_than_max', path: 'schema.columns[0].min_length', line: 7, column: 47 }]);
  });
});

describe('parseContract: references between columns', () => {
  it('reports a grain column that is not declared, at the grain item', () => {
    const text = yaml(...HEAD, 'schema:', '  grain: [order_id, order_key]', '  columns:', '    - { name: order_id, type: string }');
    expect(problemsIn(text)).toEqual([{ code: 'unknown_column', path: 'schema.grain[1]', line: 6, column: 21 }]);
    expect(messagesIn(text)).toEqual(['"order_key" is not a column of schema.columns']);
  });

  it('reports required_when naming an undeclared column, at that name', () => {
    const text = withColumns([
      '{ name: status, type: string }',
      '{ name: refund, type: float64, required_when: { column: state, in: [cancelled] } }',
    ]);
    expect(problemsIn(text)).toEqual([{ code: 'unknown_column', path: 'schema.columns[1].required_when.column', line: 8, column: 63 }]);
  });

  it('reports a column declared twice at the second name', () => {
    const text = withColumns(['{ name: order_id, type: string }', '{ name: order_id, type: int64 }']);
    expect(problemsIn(text)).toEqual([{ code: 'duplicate_column', path: 'schema.columns[1].name', line: 8, column: 15 }]);
    expect(messagesIn(text)).toEqual(['column "order_id" is declared twice']);
  });

  it('does not also report a column with a wrong type as undeclared where others name it', () => {
    const text = withColumns(
      ['{ name: order_id, type: string }', '{ name: updated_at, type: timestmp }', '{ name: note, type: string, required_when: { column: updated_at, in: [x] } }'],
      'sla: { max_lag_hours: 26, freshness_column: updated_at }',
    ).replace('  columns:', '  grain: [updated_at]\n  columns:');
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'schema.columns[1].type', line: 9, column: 33 }]);
  });

  it('still checks the type-independent keys of a column whose type is wrong', () => {
    const text = withColumns(['{ name: order_id, type: text, required: "yes" }']);
    expect(problemsIn(text)).toEqual([
      { code: 'invalid_value', path: 'schema.columns[0].type', line: 7, column: 31 },
      { code: 'wrong_type', path: 'schema.columns[0].required', line: 7, column: 47 },
    ]);
  });
});

describe('parseContract: sla', () => {
  const sla = (...lines: string[]) => withColumns(['{ name: updated_at, type: timestamp }', '{ name: order_id, type: string }'], 'sla:', ...lines);

  it('reports max_lag_hours without freshness_column', () => {
    expect(problemsIn(sla('  max_lag_hours: 26'))).toEqual([{ code: 'freshness_column_missing', path: 'sla.max_lag_hours', line: 10, column: 18 }]);
  });

  it('reports a freshness_column that is not a date or timestamp, at its value', () => {
    const text = sla('  max_lag_hours: 26', '  freshness_column: order_id');
    expect(problemsIn(text)).toEqual([{ code: 'rule_not_for_type', path: 'sla.freshness_column', line: 11, column: 21 }]);
    expect(messagesIn(text)).toEqual(['freshness needs a date or timestamp column; "order_id" is string']);
  });

  it('reports a freshness_column that is not declared, at its value', () => {
    const text = sla('  max_lag_hours: 26', '  freshness_column: changed_at');
    expect(problemsIn(text)).toEqual([{ code: 'unknown_column', path: 'sla.freshness_column', line: 11, column: 21 }]);
  });

  it('reports an arrival_by that is not HH:MM', () => {
    const text = sla('  arrival_by: "6:00"', '  timezone: Europe/Berlin');
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'sla.arrival_by', line: 10, column: 15 }]);
    expect(messagesIn(text)).toEqual(['expected a time of day HH:MM (24-hour, quoted), found "6:00"']);
  });

  it('reports arrival_by without a timezone at the sla mapping', () => {
    expect(problemsIn(sla('  arrival_by: "06:00"'))).toEqual([{ code: 'missing_key', path: 'sla.timezone', line: 10, column: 3 }]);
  });

  it('reports a timezone that is not an IANA name', () => {
    const text = sla('  arrival_by: "06:00"', '  timezone: Europe/Berln');
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', path: 'sla.timezone', line: 11, column: 13 }]);
    expect(messagesIn(text)).toEqual(['"Europe/Berln" is not an IANA time zone name such as Europe/Berlin or UTC']);
  });

  it('reports a freshness_column of the wrong type once, not also as missing', () => {
    const text = sla('  max_lag_hours: 26', '  freshness_column: 42');
    expect(problemsIn(text)).toEqual([{ code: 'wrong_type', path: 'sla.freshness_column', line: 11, column: 21 }]);
  });

  it('reports min_rows greater than max_rows at min_rows', () => {
    expect(problemsIn(sla('  min_rows: 10', '  max_rows: 5'))).toEqual([{ code: 'min_greater_than_max', path: 'sla.min_rows', line: 10, column: 13 }]);
  });
});

describe('parseContract: file name', () => {
  it('reports a major version that differs from the one in the file name', () => {
    const text = yaml(...HEAD, ...SCHEMA);
    expect(problemsIn(text, 'contracts/orders.v2.yaml')).toEqual([{ code: 'name_mismatch', path: 'version', line: 2, column: 10 }]);
    expect(messagesIn(text, 'contracts/orders.v2.yaml')).toEqual([
      'the file is named for major version 2 but declares 1.2.0; a new major version is a new file',
    ]);
  });

  it('reports a dataset name that differs from the one in the file name', () => {
    const text = yaml('name: shipments', 'version: 2.0.0', ...HEAD.slice(2), ...SCHEMA);
    expect(problemsIn(text, 'contracts/orders.v2.yaml')).toEqual([{ code: 'name_mismatch', path: 'name', line: 1, column: 7 }]);
  });

  it('accepts a file named for the dataset and major version it declares', () => {
    const text = yaml('name: orders', 'version: 2.1.0', ...HEAD.slice(2), ...SCHEMA);
    expect(problemsIn(text, '/repo/contracts/orders.v2.yaml')).toEqual([]);
  });
});

describe('parseContract: results', () => {
  it('reports every problem of a file at once, sorted by position', () => {
    const text = yaml(
      'name: orders',
      'version: 2.0.0',
      'status: deprecatd',
      'owner: { team: orders-platform, notify: [oncall@example.com] }',
      'produces: { format: parquet }',
      'schema:',
      '  columns:',
      '    - { name: order_id, type: string, requird: true }',
      'sla:',
      '  timezone: Mars/Olympus',
    );
    const { contract, problems } = parseContract(text, FILE);
    expect(contract).toBeUndefined();
    expect(problems.map(({ code, path, line, column }) => ({ code, path, line, column }))).toEqual([
      { code: 'name_mismatch', path: 'version', line: 2, column: 10 },
      { code: 'invalid_value', path: 'status', line: 3, column: 9 },
      { code: 'unknown_key', path: 'schema.columns[0].requird', line: 8, column: 39 },
      { code: 'invalid_value', path: 'sla.timezone', line: 10, column: 13 },
    ]);
    expect(problems.every((p) => p.file === FILE && p.severity === 'error')).toBe(true);
  });

  it('turns a valid contract into the model, with defaults and temporal bounds in epoch milliseconds', () => {
    const text = yaml(
      '# yaml-language-server: $schema=./contract.schema.json',
      'name: orders',
      'version: 1.2.0',
      'owner: { team: orders-platform, notify: [oncall@example.com, "#orders"] }',
      'description: One row per order.',
      'produces: { format: parquet }',
      'schema:',
      '  columns:',
      '    - { name: order_id, type: string, unique: true, pattern: "^ord_", min_length: 4, max_length: 12 }',
      '    - { name: status, type: string, required: true, enum: [placed, cancelled] }',
      '    - { name: amount, type: "decimal(12,2)", min: 0, max: 1000000.5 }',
      '    - { name: refund, type: float64, required_when: { column: status, in: [cancelled] } }',
      '    - { name: order_day, type: date, min: 2020-01-01, max: 2030-12-31, description: Day of the order. }',
      '    - { name: ordered_at, type: timestamp, min: "2020-01-01T01:00:00+01:00", max: "2030-01-01 12:30:00.250Z", not_in_future: true }',
      'sla: { arrival_by: "06:00", timezone: Europe/Berlin, max_lag_hours: 26, freshness_column: ordered_at, min_rows: 1, max_rows: 100 }',
    );
    const { contract, problems } = parseContract(text, FILE);
    expect(problems).toEqual([]);
    const column = { required: false, unique: false, notInFuture: false };
    expect(contract).toEqual({
      name: 'orders',
      version: { major: 1, minor: 2, patch: 0, text: '1.2.0' },
      status: 'active',
      owner: { team: 'orders-platform', notify: ['oncall@example.com', '#orders'] },
      description: 'One row per order.',
      produces: { format: 'parquet', partition: 'dt={ds}' },
      schema: {
        grain: [],
        extraColumns: 'allow',
        columns: [
          { ...column, name: 'order_id', type: { kind: 'string' }, typeText: 'string', unique: true, pattern: '^ord_', minLength: 4, maxLength: 12 },
          { ...column, name: 'status', type: { kind: 'string' }, typeText: 'string', required: true, enum: ['placed', 'cancelled'] },
          { ...column, name: 'amount', type: { kind: 'decimal', precision: 12, scale: 2 }, typeText: 'decimal(12,2)', min: 0, max: 1000000.5 },
          { ...column, name: 'refund', type: { kind: 'float64' }, typeText: 'float64', requiredWhen: { column: 'status', in: ['cancelled'] } },
          {
            ...column, name: 'order_day', type: { kind: 'date' }, typeText: 'date', description: 'Day of the order.',
            min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 11, 31),
          },
          {
            ...column, name: 'ordered_at', type: { kind: 'timestamp' }, typeText: 'timestamp', notInFuture: true,
            min: Date.UTC(2020, 0, 1, 0, 0, 0), max: Date.UTC(2030, 0, 1, 12, 30, 0, 250),
          },
        ],
      },
      sla: {
        schedule: { kind: 'daily' }, partitionLag: 1, graceMinutes: 0, skipDates: [],
        arrivalBy: '06:00', timezone: 'Europe/Berlin', maxLagHours: 26, freshnessColumn: 'ordered_at', minRows: 1, maxRows: 100,
      },
      consumers: [],
      compat: { mode: 'backward' },
    });
  });

  it('loads severities, a row tolerance, a freshness warning, a volume band and a reference into the model', () => {
    const text = yaml(
      ...HEAD,
      'on_violation: { max_invalid_rows: 100 }',
      'schema:',
      '  grain: [order_id]',
      '  extra_columns: warn',
      '  severity: { grain: warn }',
      '  columns:',
      '    - { name: order_id, type: string }',
      '    - { name: customer_id, type: string, references: { contract: customers, column: customer_id, major: 1 }, severity: { references: warn } }',
      '    - { name: note, type: string, severity: warn }',
      '    - { name: updated_at, type: timestamp }',
      'sla:',
      '  max_lag_hours: 26',
      '  warn_lag_hours: 6',
      '  freshness_column: updated_at',
      '  min_rows: 10',
      '  volume_vs_history: { lookback: 7, min_ratio: 0.9, max_ratio: 3 }',
      '  severity: { min_rows: warn, volume_vs_history: warn, freshness: error }',
    );
    const { contract, problems } = parseContract(text, FILE);
    expect(problems).toEqual([]);
    const column = { required: false, unique: false, notInFuture: false, type: { kind: 'string' }, typeText: 'string' };
    const allWarn = { required: 'warn', required_when: 'warn', type: 'warn', enum: 'warn', min: 'warn', max: 'warn', pattern: 'warn', length: 'warn', not_in_future: 'warn', unique: 'warn', references: 'warn' };
    expect(contract?.onViolation).toEqual({ maxInvalidRows: 100 });
    expect(contract?.schema).toEqual({
      grain: ['order_id'],
      extraColumns: 'warn',
      severity: { grain: 'warn' },
      columns: [
        { ...column, name: 'order_id' },
        { ...column, name: 'customer_id', references: { contract: 'customers', column: 'customer_id', major: 1 }, severity: { references: 'warn' } },
        { ...column, name: 'note', severity: allWarn },
        { ...column, name: 'updated_at', type: { kind: 'timestamp' }, typeText: 'timestamp' },
      ],
    });
    expect(contract?.sla).toEqual({
      schedule: { kind: 'daily' }, partitionLag: 1, graceMinutes: 0, skipDates: [], maxLagHours: 26, warnLagHours: 6, freshnessColumn: 'updated_at', minRows: 10,
      volumeVsHistory: { lookback: 7, minRatio: 0.9, maxRatio: 3 }, severity: { min_rows: 'warn', volume_vs_history: 'warn' },
    });
  });

  it('formats a problem as file:line:col severity [code] path: message', () => {
    const [problem] = parseContract(yaml(...HEAD, 'status: deprecatd', ...SCHEMA), FILE).problems;
    expect(problem && formatProblem(problem)).toBe(
      'contracts/orders.v1.yaml:5:9 error [invalid_value] status: expected one of active, deprecated, retired, found "deprecatd"; did you mean "deprecated"?',
    );
  });

  it('formats a problem without a path as file:line:col severity [code] message', () => {
    const [problem] = parseContract(yaml(...HEAD, 'name: shipments', ...SCHEMA), FILE).problems;
    expect(problem && formatProblem(problem)).toBe('contracts/orders.v1.yaml:5:1 error [duplicate_key] Map keys must be unique');
  });
});
