import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { parseClockText } from '../../lib/import/clock-text.js';
import { importContract, type ImportOptions } from '../../lib/import/import-contract.js';
import { seedText } from './seed-fixtures.js';

/**
 * What the importers take beyond the printed contracts: the same shapes as users edit them (real
 * addresses, other tests, other policies), and what is refused, with its position.
 */
function run(text: string, options: Partial<ImportOptions> = {}) {
  const result = importContract(text, 'orders.yaml', { from: 'auto', ...options });
  const errors = result.problems.filter((p) => p.severity === 'error').map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`);
  const warnings = result.problems.filter((p) => p.severity === 'warning').map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`);
  const contract = result.text === undefined ? undefined : parseContract(result.text, result.fileName!).contract;
  return { contract, text: result.text, errors, warnings };
}

function loaded(text: string, options: Partial<ImportOptions> = {}): { contract: Contract; text: string; warnings: string[] } {
  const result = run(text, options);
  expect(result.errors).toEqual([]);
  return { contract: result.contract!, text: result.text!, warnings: result.warnings };
}

const lesson = (fields: string, quality = '') => `contract:\n  id: orders\n  producer: { team: shop, contact: shop@example.com }\nschema:\n  fields:\n${fields}${quality}`;

describe('lesson shape: the tests users write besides the printed ones', () => {
  it('reads not_null_when as "column = value" and as { column, in }, a pattern given as { pattern }, and less_than_or_equal as max', () => {
    const { contract } = loaded(lesson([
      '    - { name: status, type: STRING, allowed_values: [placed, cancelled] }',
      '    - name: refund', '      type: FLOAT', '      tests: [{ not_null_when: "status = \'cancelled\'" }, { less_than_or_equal: 1000 }]',
      '    - name: reason', '      type: STRING', '      tests: [{ not_null_when: { column: status, in: [cancelled] } }, { matches_regex: { pattern: "^[a-z]+$" } }]', '',
    ].join('\n')));
    expect(contract.schema.columns[1]).toMatchObject({ requiredWhen: { column: 'status', in: ['cancelled'] }, max: 1000 });
    expect(contract.schema.columns[2]).toMatchObject({ requiredWhen: { column: 'status', in: ['cancelled'] }, pattern: '^[a-z]+$' });
  });

  it('keeps a test it has no rule for as a comment, warned at its place', () => {
    const { text, warnings } = loaded(lesson('    - name: amount\n      type: FLOAT\n      tests:\n        - expect_between: { min: 0, max: 10 }\n'));
    expect(warnings).toContainEqual('9:11 schema.fields[0].tests[0] amount test expect_between ({"min":0,"max":10}) is not enforced by contract-gate; it is kept as a comment');
    expect(text).toContain('# not enforced: amount test expect_between');
  });

  it('refuses a bare accepted_values on a field that lists no allowed_values, at the test', () => {
    const { errors } = run(lesson('    - name: status\n      type: STRING\n      tests: [accepted_values]\n'));
    expect(errors).toEqual(['8:15 schema.fields[0].tests[0] accepted_values needs its values: list them on the field (allowed_values: [a, b]) or in the test ({ accepted_values: [a, b] })']);
  });

  it('takes uniqueness as a plain list for the grain, and a later one-column key as unique', () => {
    const { contract } = loaded(lesson('    - { name: id, type: STRING }\n    - { name: email, type: STRING }\n', 'quality:\n  uniqueness:\n    - key: [id]\n    - key: [email]\n'));
    expect(contract.schema.grain).toEqual(['id']);
    expect(contract.schema.columns[1]?.unique).toBe(true);
    expect(loaded(lesson('    - { name: id, type: STRING }\n', 'quality:\n  uniqueness: [id]\n')).contract.schema.grain).toEqual(['id']);
  });

  it('keeps a freshness warning that would not come before the error as a comment', () => {
    const fields = '    - { name: ingested_at, type: TIMESTAMP_TZ }\n';
    const { contract, warnings } = loaded(lesson(fields, 'quality:\n  freshness_warn_after_minutes: 90\n  freshness_error_after_minutes: 60\n'));
    expect(contract.sla).toMatchObject({ maxLagHours: 1, freshnessColumn: 'ingested_at' });
    expect(contract.sla?.warnLagHours).toBeUndefined();
    expect(warnings).toContainEqual(expect.stringMatching(/^8:33 quality\.freshness_warn_after_minutes a freshness warning after 90 minutes, not before the error after 60 minutes/));
  });
});

describe('skill shape with the addresses a page redacted filled in', () => {
  it('pages the owner\'s address and registers each consumer address, teams named after them', () => {
    const text = seedText('003-churn_features_v2.yaml').replace('owner: [e-mail]', 'owner: [churn-ml@example.com]').replace('- [e-mail]\n    - [e-mail]', '- [bi@example.com]\n    - growth@example.com');
    const { contract, warnings } = loaded(text);
    expect(contract.owner).toEqual({ team: 'churn-ml', notify: ['churn-ml@example.com'] });
    expect(contract.consumers).toEqual([{ team: 'bi', notify: ['bi@example.com'], columns: [] }, { team: 'growth', notify: ['growth@example.com'], columns: [] }]);
    expect(warnings.filter((w) => w.includes('e-mail address'))).toEqual([]);
  });

  it('leaves a grain in prose that names no columns as a TODO', () => {
    const { contract, warnings } = loaded(seedText('003-churn_features_v2.yaml').replace('One row per customer_id per feature_date', 'One row per customer per day'));
    expect(contract.schema.grain).toEqual([]);
    expect(warnings).toContainEqual(expect.stringMatching(/^9:10 contract\.grain the grain "One row per customer per day" does not name the schema's columns/));
  });
});

describe('pipeline-post shape: other compat policies, partitions and clocks', () => {
  const post = seedText('000-orders_v1.yaml');

  it('keeps a compat policy the gate decides otherwise as a comment, under mode backward', () => {
    const { contract, warnings } = loaded(post.replace('rename: breaking', 'rename: allow'));
    expect(contract.compat.mode).toBe('backward');
    expect(warnings).toContainEqual(expect.stringMatching(/^25:11 compat\.rename compat rename: allow \(under mode backward a rename is a removal plus an addition and needs a new major version\)/));
    expect(loaded(post.replace(/compat:\n(  .*\n)+/, 'compat: full\n')).contract.compat.mode).toBe('full');
  });

  it('reads the partition from the URI, and leaves one it cannot read as a TODO', () => {
    expect(loaded(post.replace('dt={ds}/', 'dt={ds}/hh={hh}/')).contract.produces.partition).toBe('dt={ds}/hh={hh}');
    const { contract, warnings } = loaded(post.replace('dt={ds}/', 'day={{ ds_nodash }}/'));
    expect(contract.produces.partition).toBe('dt={ds}');
    expect(warnings).toContainEqual(expect.stringMatching(/^6:8 produces\.uri the partition layout of s3:\/\/lake\/landing\/orders\/day=\{\{ ds_nodash \}\}\/ is no template/));
  });

  it('reads a zone written in the deadline, and writes UTC with a TODO when none is given', () => {
    expect(loaded(post.replace('arrival_by: "06:00"\n  timezone: UTC', 'arrival_by: "6:30 Europe/Berlin"')).contract.sla).toMatchObject({ arrivalBy: '06:30', timezone: 'Europe/Berlin' });
    const { contract, warnings } = loaded(post.replace('  timezone: UTC\n', ''));
    expect(contract.sla).toMatchObject({ arrivalBy: '06:00', timezone: 'UTC' });
    expect(warnings).toContainEqual(expect.stringMatching(/^18:15 sla\.arrival_by the deadline "06:00" names no time zone: UTC is written/));
  });

  it('refuses a time zone that is no IANA name, at the key', () => {
    expect(run(post.replace('timezone: UTC', 'timezone: CEST')).errors).toEqual(['19:13 sla.timezone "CEST" is not an IANA time zone name such as Europe/Berlin or UTC']);
  });
});

describe('course shape as users edit the dict', () => {
  it('reads "max": None as no bound and backward_compatible_changes_only False as compat mode none', () => {
    const text = seedText('002-orders_contract.yaml').replace('"min": 0}', '"min": 0, "max": None}').replace('"backward_compatible_changes_only": True', '"backward_compatible_changes_only": False');
    const { contract } = loaded(text);
    expect(contract.schema.columns[2]).toMatchObject({ name: 'amount', min: 0 });
    expect(contract.schema.columns[2]?.max).toBeUndefined();
    expect(contract.compat.mode).toBe('none');
  });

  it('reads pandas datetime64 dtypes as wall-clock time or, with a zone, as instants', () => {
    const text = seedText('002-orders_contract.yaml').replace('"order_date": {"type": "object"', '"order_date": {"type": "datetime64[ns]"}, "paid_at": {"type": "datetime64[ns, UTC]"');
    expect(loaded(text).contract.schema.columns.slice(4).map((c) => [c.name, c.typeText])).toEqual([['order_date', 'timestamp_ntz'], ['paid_at', 'timestamp']]);
  });
});

describe('DuckDB-post shape: a rule the column type cannot carry', () => {
  it('keeps allowed values of an integer column as a comment, warned at the key', () => {
    const { text, warnings } = loaded(seedText('004-contract.yaml').replace('{name: coupon, type: string, nullable: true}', '{name: quantity, type: integer, allowed: [1, 2, 3]}'));
    expect(text).toContain('# not enforced: allowed values [1, 2, 3]: enum applies to string columns (the column is int64)');
    expect(warnings).toContainEqual(expect.stringMatching(/^10:46 columns\[4\]\.allowed allowed values \[1, 2, 3\]/));
  });
});

describe('delivery deadlines in words', () => {
  it.each([
    ['06:00', { arrivalBy: '06:00' }], ['06:00 UTC', { arrivalBy: '06:00', timezone: 'UTC' }], ['at-least-daily by 04:00 UTC', { arrivalBy: '04:00', timezone: 'UTC' }],
    ['daily by 7:15 Europe/Berlin', { arrivalBy: '07:15', timezone: 'Europe/Berlin' }], ['by 23:59 GMT', { arrivalBy: '23:59', timezone: 'UTC' }],
  ])('"%s" is a daily deadline', (text, clock) => {
    expect(parseClockText(text)).toEqual(clock);
  });

  it.each(['hourly by 00:15', '6am UTC', '24:00 UTC', '06:00 CEST', 'between 04:00 and 06:00'])('"%s" is no deadline the gate can check without a guess', (text) => {
    expect(parseClockText(text)).toBeUndefined();
  });
});
