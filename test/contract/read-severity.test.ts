import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { COLUMN_SEVERITY_RULES } from '../../lib/contract/model.js';

/** Lines 1-6; columns start on line 7. */
const HEAD = ['name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:'];

function load(...lines: string[]) {
  return parseContract([...HEAD, ...lines].join('\n') + '\n', 'orders.v1.yaml');
}

function problems(...lines: string[]) {
  return load(...lines).problems.map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }));
}

describe('severity on a column', () => {
  it('severity: warn makes every rule of the column a warning', () => {
    const { contract, problems: found } = load('    - { name: status, type: string, enum: [a, b], severity: warn }');
    expect(found).toEqual([]);
    expect(contract?.schema.columns[0]?.severity).toEqual(Object.fromEntries(COLUMN_SEVERITY_RULES.map((rule) => [rule, 'warn'])));
  });

  it('severity: error is the default and leaves no map', () => {
    const { contract, problems: found } = load('    - { name: status, type: string, severity: error }');
    expect(found).toEqual([]);
    expect(contract?.schema.columns[0]).not.toHaveProperty('severity');
  });

  it('per rule, keeps only the rules set to warn', () => {
    const { contract, problems: found } = load('    - { name: status, type: string, required: true, enum: [a], severity: { enum: warn, required: error } }');
    expect(found).toEqual([]);
    expect(contract?.schema.columns[0]?.severity).toEqual({ enum: 'warn' });
  });

  it('counts a grain column as declaring required', () => {
    const { contract, problems: found } = load('    - { name: id, type: string, severity: { required: warn } }', '  grain: [id]');
    expect(found).toEqual([]);
    expect(contract?.schema.columns[0]?.severity).toEqual({ required: 'warn' });
  });

  it('warns, and loads, when the rule is not declared on the column', () => {
    const { contract, problems: found } = load('    - { name: status, type: string, severity: { enum: warn, type: warn } }');
    expect(found.map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }))).toEqual([
      { severity: 'warning', code: 'rule_not_declared', path: 'schema.columns[0].severity.enum', line: 7, column: 49, message: 'column "status" declares no enum rule, so its severity changes nothing; declare it (enum: [...]) or remove enum from severity' },
    ]);
    expect(contract?.schema.columns[0]?.severity).toEqual({ type: 'warn' });
  });

  it('does not warn about the severity of a rule that is written but wrong', () => {
    expect(problems('    - { name: n, type: int64, min: "a", severity: { min: warn } }').map((p) => p.code)).toEqual(['wrong_type']);
  });

  it('refuses a value other than error or warn, with a suggestion', () => {
    expect(problems('    - { name: status, type: string, severity: warning }')).toEqual([
      { severity: 'error', code: 'invalid_value', path: 'schema.columns[0].severity', line: 7, column: 47, message: 'expected one of error, warn, found "warning"; did you mean "warn"?' },
    ]);
    expect(problems('    - { name: status, type: string, enum: [a], severity: { enum: info } }').map((p) => [p.code, p.path, p.message])).toEqual([
      ['invalid_value', 'schema.columns[0].severity.enum', 'expected one of error, warn, found "info"'],
    ]);
  });

  it('names the rule a misspelt or foreign key stands for', () => {
    const found = problems('    - { name: status, type: string, max_length: 3, severity: { enmu: warn, max_length: warn, grain: warn } }');
    expect(found.map((p) => [p.code, p.path, p.message])).toEqual([
      ['unknown_key', 'schema.columns[0].severity.enmu', 'unknown key "enmu"; did you mean "enum"?'],
      ['unknown_key', 'schema.columns[0].severity.max_length', 'unknown key "max_length"; write length: min_length and max_length are one rule'],
      ['unknown_key', 'schema.columns[0].severity.grain', 'unknown key "grain"; grain is a rule of the schema: write it under schema.severity'],
    ]);
  });
});

describe('severity of the schema', () => {
  it('loads grain and extra_columns set to warn', () => {
    const { contract, problems: found } = load('    - { name: id, type: string }', '  grain: [id]', '  extra_columns: reject', '  severity: { grain: warn, extra_columns: warn }');
    expect(found).toEqual([]);
    expect(contract?.schema.severity).toEqual({ grain: 'warn', extra_columns: 'warn' });
  });

  it('warns about a grain severity without a grain and an extra_columns severity when they are allowed', () => {
    const found = problems('    - { name: id, type: string }', '  severity: { grain: warn, extra_columns: warn }');
    expect(found).toEqual([
      { severity: 'warning', code: 'rule_not_declared', path: 'schema.severity.grain', line: 8, column: 15, message: 'the schema declares no grain rule, so its severity changes nothing; declare it (schema.grain: [...]) or remove grain from severity' },
      { severity: 'warning', code: 'rule_not_declared', path: 'schema.severity.extra_columns', line: 8, column: 28, message: 'the schema declares no extra_columns rule, so its severity changes nothing; declare it (extra_columns: warn or reject) or remove extra_columns from severity' },
    ]);
    expect(load('    - { name: id, type: string }', '  severity: { grain: warn }').contract?.schema).not.toHaveProperty('severity');
  });

  it('is a mapping of rules, not one severity for all', () => {
    expect(problems('    - { name: id, type: string }', '  severity: warn')).toEqual([
      { severity: 'error', code: 'wrong_type', path: 'schema.severity', line: 8, column: 13, message: 'expected a mapping of rule to error or warn, e.g. { grain: warn }; rules: grain, extra_columns' },
    ]);
  });
});

describe('extra_columns', () => {
  it('takes warn besides allow and reject', () => {
    expect(load('    - { name: id, type: string }', '  extra_columns: warn').contract?.schema.extraColumns).toBe('warn');
    expect(problems('    - { name: id, type: string }', '  extra_columns: warnn').map((p) => [p.code, p.line, p.column, p.message])).toEqual([
      ['invalid_value', 8, 18, 'expected one of allow, warn, reject, found "warnn"; did you mean "warn"?'],
    ]);
  });
});

describe('severity of the sla', () => {
  const COLUMNS = ['    - { name: ts, type: timestamp }'];

  it('loads the SLA rules set to warn', () => {
    const { contract, problems: found } = load(...COLUMNS, 'sla:', '  min_rows: 1', '  max_rows: 9', '  max_lag_hours: 2', '  freshness_column: ts', '  severity: { min_rows: warn, max_rows: error, freshness: warn }');
    expect(found).toEqual([]);
    expect(contract?.sla?.severity).toEqual({ min_rows: 'warn', freshness: 'warn' });
  });

  it('warns about a rule the SLA does not configure', () => {
    expect(problems(...COLUMNS, 'sla: { severity: { volume_vs_history: warn } }')).toEqual([
      { severity: 'warning', code: 'rule_not_declared', path: 'sla.severity.volume_vs_history', line: 8, column: 20, message: 'the sla declares no volume_vs_history rule, so its severity changes nothing; declare it (volume_vs_history: { min_ratio, max_ratio }) or remove volume_vs_history from severity' },
    ]);
  });

  it('names the rule of the lag keys and where column rules go', () => {
    expect(problems(...COLUMNS, 'sla: { severity: { max_lag_hours: warn, enum: warn } }').map((p) => p.message)).toEqual([
      'unknown key "max_lag_hours"; write freshness: the rule max_lag_hours and warn_lag_hours configure',
      'unknown key "enum"; enum is a rule of a column: write it in the column\'s severity',
    ]);
  });

  it('is told where severity goes when written at the top', () => {
    expect(problems(...COLUMNS, 'severity: warn').map((p) => [p.code, p.path, p.message])).toEqual([
      ['unknown_key', 'severity', 'unknown key "severity"; severity goes on a column (severity: warn), under schema (severity: { grain: warn }) or under sla (severity: { min_rows: warn })'],
    ]);
  });
});
