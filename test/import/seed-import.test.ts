import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { detectSource } from '../../lib/import/detect-source.js';
import { NOTIFY_PLACEHOLDER, TEAM_PLACEHOLDER } from '../../lib/import/finish-draft.js';
import type { ImportOptions } from '../../lib/import/import-contract.js';
import { SourceNodes } from '../../lib/import/source-nodes.js';
import { YamlReader } from '../../lib/contract/yaml-reader.js';
import { importSeed, seedText } from './seed-fixtures.js';

/** Imports a seed fixture as printed and loads what was written, as lint does. */
function imported(file: string, options: Partial<ImportOptions> = {}, text?: string): { contract: Contract; text: string; warnings: string[]; fileName: string } {
  const result = importSeed(file, options, text);
  expect(result.problems.filter((p) => p.severity === 'error')).toEqual([]);
  const loaded = parseContract(result.text!, result.fileName!);
  expect(loaded.problems).toEqual([]);
  return { contract: loaded.contract!, text: result.text!, fileName: result.fileName!, warnings: result.problems.map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`) };
}

const column = (contract: Contract, name: string) => contract.schema.columns.find((c) => c.name === name);
const withoutHeader = (text: string) => text.split('\n').slice(1).join('\n');

const PRINTED = [
  ['000-orders_v1.yaml', 'pipeline-post', 'produces.uri'],
  ['001-orders_v1.yaml', 'lesson', 'contract.producer'],
  ['002-orders_contract.yaml', 'course', 'a fields mapping from each column name to its rules'],
  ['003-churn_features_v2.yaml', 'skill', 'a contract mapping beside a top-level schema list'],
  ['004-contract.yaml', 'duckdb-post', 'dataset beside a columns list'],
] as const;

describe('import: every contract the documents print, exactly as printed', () => {
  const detect = (text: string) => detectSource(new SourceNodes(new YamlReader(text, 'x.yaml')));

  it.each(PRINTED)('--from auto reads %s as %s, because of %s', (file, source, why) => {
    expect(detect(seedText(file))).toEqual({ kind: 'source', source, why: expect.stringContaining(why) });
    const result = importSeed(file);
    expect(result).toMatchObject({ source, why: expect.stringContaining(why) });
    expect(result.text?.split('\n')[0]).toBe(`# Imported by contract-gate from ${file} (${source}: ${result.why}).`);
  });

  it.each(PRINTED)('%s imports the same with --from %s named', (file, source) => {
    const auto = imported(file);
    const named = imported(file, { from: source });
    expect(withoutHeader(named.text)).toBe(withoutHeader(auto.text));
  });

  it.each([['001-sources.yml', 'a sources list'], ['003-schema.yml', 'a models list']])('reads the dbt file %s as dbt (%s), for the dbt importer', (file, why) => {
    expect(detect(seedText(file))).toEqual({ kind: 'source', source: 'dbt', why: expect.stringContaining(why) });
  });
});

describe('import: seed 000, the pipeline post', () => {
  it('keeps grain, schema, clock and data SLA, volume band and owner; compat is mode backward', () => {
    const { contract, text, warnings, fileName } = imported('000-orders_v1.yaml');
    expect(fileName).toBe('orders.v1.yaml');
    expect(contract).toMatchObject({ name: 'orders', version: { text: '1.0.0' }, owner: { team: 'orders-platform', notify: [NOTIFY_PLACEHOLDER] }, produces: { format: 'parquet', partition: 'dt={ds}' }, compat: { mode: 'backward' } });
    expect(contract.schema.grain).toEqual(['order_id']);
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required])).toEqual([
      ['order_id', 'string', true], ['customer_id', 'string', true], ['status', 'string', true], ['amount', 'float64', true], ['ordered_at', 'timestamp', true], ['updated_at', 'timestamp', true],
    ]);
    expect(column(contract, 'status')?.enum).toEqual(['placed', 'paid', 'cancelled']);
    expect(column(contract, 'amount')?.min).toBe(0);
    expect(contract.sla).toMatchObject({ arrivalBy: '06:00', timezone: 'UTC', maxLagHours: 26, freshnessColumn: 'updated_at', minRows: 1000, maxRows: 5000000 });
    expect(text).toContain('# freshness_column updated_at: the pipeline post measures max_lag_hours on the newest updated_at');
    expect(text).toContain('# mode backward is the source\'s additive_columns: allow, rename: breaking, type_narrow: breaking');
    expect(text).toContain('arrival_by: "06:00"');
    // Only whom to page is missing: the document names a team, never an address.
    expect(warnings).toEqual([expect.stringContaining('the source names no one to page')]);
  });
});

describe('import: seed 001, the lesson', () => {
  it('maps nullable, allowed_values, the tests, the composite key and both freshness thresholds', () => {
    const { contract, text } = imported('001-orders_v1.yaml');
    expect(contract).toMatchObject({ name: 'orders', version: { text: '1.0.0' }, status: 'active', owner: { team: 'platform-engineering', notify: ['platform-data@company.com'] } });
    expect(contract.consumers).toEqual([{ team: 'analytics-engineering', notify: ['analytics@company.com'], columns: [] }]);
    expect(contract.schema).toMatchObject({ grain: ['order_id', 'status', 'event_timestamp'], extraColumns: 'warn' });
    expect(column(contract, 'order_id')).toMatchObject({ required: true, pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' });
    expect(column(contract, 'status')).toMatchObject({ required: true, enum: ['PENDING', 'CONFIRMED', 'SHIPPED', 'DELIVERED', 'CANCELLED', 'REFUNDED'] });
    expect(column(contract, 'revenue_usd')).toMatchObject({ typeText: 'decimal(12,2)', required: false, requiredWhen: { column: 'status', in: ['CONFIRMED', 'SHIPPED', 'DELIVERED'] }, min: 0 });
    expect(column(contract, 'event_timestamp')).toMatchObject({ typeText: 'timestamp', required: true, notInFuture: true });
    expect(contract.sla).toMatchObject({ maxLagHours: 1, warnLagHours: 20 / 60, freshnessColumn: 'ingested_at' });
    expect(contract.description).toMatch(/^Order events published by the order service .* different statuses\.$/);
    expect(text).toContain('# changelog: [{"version":"1.0.0","date":"2024-01-15"');
    expect(text).toContain('# freshness_column ingested_at: the lesson\'s dbt source freshness for these thresholds reads loaded_at_field: ingested_at');
  });

  it('warns of what the gate does not check, each at its place in the file', () => {
    const { text, warnings } = imported('001-orders_v1.yaml');
    expect(warnings).toEqual([
      '22:3 dataset.mutability dataset.mutability: append-only is not enforced by contract-gate; it is kept as a comment',
      '23:3 dataset.latency_sla_minutes dataset.latency_sla_minutes: 15 is not enforced by contract-gate; it is kept as a comment',
      '24:3 dataset.availability_sla_percent dataset.availability_sla_percent: 99.5 is not enforced by contract-gate; it is kept as a comment',
      expect.stringMatching(/^84:31 quality\.row_count_minimum_per_hour at least 100 rows per hour \(sla\.min_rows counts the rows of one partition/),
      expect.stringContaining('the source names no file format'),
    ]);
    expect(text).toContain('# not enforced: dataset.mutability: append-only');
    expect(text).toContain('# not enforced: at least 100 rows per hour');
  });
});

describe('import: seed 002, the course module\'s dict literal', () => {
  it('reads the dict as YAML: pandas dtypes, nullable, unique, min, enum, the delivery clock and backward compatibility', () => {
    const { contract, text, fileName } = imported('002-orders_contract.yaml');
    expect(fileName).toBe('orders.v1.yaml');
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required, c.unique])).toEqual([
      ['order_id', 'int64', true, true], ['customer_id', 'int64', true, false], ['amount', 'float64', true, false], ['status', 'string', true, false], ['order_date', 'string', true, false],
    ]);
    expect(column(contract, 'amount')?.min).toBe(0);
    expect(column(contract, 'status')?.enum).toEqual(['paid', 'refunded', 'shipped', 'cancelled']);
    expect(contract).toMatchObject({ sla: { arrivalBy: '04:00', timezone: 'UTC' }, compat: { mode: 'backward' }, owner: { team: TEAM_PLACEHOLDER } });
    expect(text).toContain('# the source\'s name "orders_v1" is dataset orders at major version 1');
    expect(text).toContain('# arrival_by 04:00 in UTC is the source\'s "at-least-daily by 04:00 UTC"');
  });

  it('takes the Python assignment pasted with it, and keeps the positions of the file', () => {
    const pasted = `orders_contract = ${seedText('002-orders_contract.yaml')}`;
    expect(withoutHeader(imported('002-orders_contract.yaml', {}, pasted).text)).toBe(withoutHeader(imported('002-orders_contract.yaml').text));
    const broken = importSeed('002-orders_contract.yaml', {}, pasted.replace('"type": "float64"', '"type": "money"'));
    expect(broken.problems.filter((p) => p.severity === 'error').map((p) => [p.line, p.column, p.path])).toEqual([[6, 28, 'fields.amount.type']]);
  });
});

describe('import: seed 003, the skill', () => {
  it('imports although the page redacted every address, with one TODO for the owner and one per consumer', () => {
    const { contract, text, warnings, fileName } = imported('003-churn_features_v2.yaml');
    expect(fileName).toBe('churn_features.v2.yaml');
    expect(contract.owner).toEqual({ team: TEAM_PLACEHOLDER, notify: [NOTIFY_PLACEHOLDER] });
    expect(warnings.filter((w) => w.includes('"e-mail", which is no e-mail address')).map((w) => w.split(' ').slice(0, 2).join(' '))).toEqual(['5:10 contract.owner', '7:7 contract.consumers[0]', '8:7 contract.consumers[1]']);
    expect(warnings.some((w) => w.includes('the source names no owner team'))).toBe(false);
    expect(text).toMatch(/# TODO: contract\.owner lists "e-mail".*\nowner: \{team: todo-set-owner-team/);
    expect(contract.consumers).toEqual([]);
  });

  it('reads the prose grain as columns, BigQuery types, range and the SLA', () => {
    const { contract, text } = imported('003-churn_features_v2.yaml');
    expect(contract.schema.grain).toEqual(['customer_id', 'feature_date']);
    expect(text).toContain('# grain [customer_id, feature_date] is the source\'s "One row per customer_id per feature_date"');
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required])).toEqual([
      ['customer_id', 'string', true], ['feature_date', 'date', true], ['days_since_last_login', 'int64', false], ['subscription_tier', 'string', true], ['predicted_churn_score', 'float64', false],
    ]);
    expect(column(contract, 'subscription_tier')?.enum).toEqual(['free', 'pro', 'enterprise']);
    expect(column(contract, 'predicted_churn_score')).toMatchObject({ min: 0, max: 1 });
    expect(contract.sla).toMatchObject({ arrivalBy: '06:00', timezone: 'UTC', maxLagHours: 24, freshnessColumn: 'feature_date' });
  });

  it('takes the consumer registration beside the contract: its team and columns, the rest as comments', () => {
    const text = `${seedText('003-churn_features_v2.yaml')}${seedText('003-consumers.yaml')}`;
    const { contract, text: written, warnings } = imported('003-churn_features_v2.yaml', {}, text);
    expect(contract.consumers).toEqual([{ team: 'ml-team', notify: [], columns: ['customer_id', 'feature_date', 'predicted_churn_score'] }]);
    expect(warnings).toContainEqual(expect.stringMatching(/^39:14 consumers\[0\]\.contact consumer ml-team's contact "e-mail" is no e-mail address/));
    expect(warnings).toContainEqual(expect.stringMatching(/^46:21 consumers\[0\]\.sla_dependency .*"needs data by 05:00 UTC for morning model training run", earlier than the contract's arrival_by 06:00 UTC/));
    expect(written).toContain('# consumer ml-team pipeline: s3://ml-pipelines/churn/ingest.py');
    expect(written).toContain('# consumer ml-team registered: 2024-03-01');
  });

  it('refuses the registration alone, and says where it belongs', () => {
    const result = importSeed('003-consumers.yaml');
    expect(result.text).toBeUndefined();
    expect(result.problems).toEqual([expect.objectContaining({ severity: 'error', line: 1, column: 1, message: expect.stringContaining('this is a consumer registration') })]);
    expect(result.problems[0]?.message).toContain('paste it into the contract it registers with, beside contract: and schema:');
  });
});

describe('import: seed 004, the DuckDB post', () => {
  it('keeps nullable false as required, the default true as optional, and rejects extra columns as the post\'s check does', () => {
    const { contract, text, fileName } = imported('004-contract.yaml');
    expect(fileName).toBe('orders.v2.yaml');
    expect(contract).toMatchObject({ name: 'orders', version: { text: '2.0.0' }, owner: { team: 'team-a' } });
    expect(contract.schema.extraColumns).toBe('reject');
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required, c.unique])).toEqual([
      ['id', 'int64', true, true], ['status', 'string', true, false], ['amount', 'decimal(18,3)', true, false], ['placed_at', 'timestamp_ntz', true, false], ['coupon', 'string', false, false],
    ]);
    expect(column(contract, 'status')?.enum).toEqual(['new', 'paid', 'shipped']);
    expect(contract.sla).toMatchObject({ maxLagHours: 24, freshnessColumn: 'placed_at' });
    expect(text).toContain('# freshness_column placed_at: the DuckDB post says "freshness_hours: 24 says the newest placed_at must be less than a day old"');
  });

  it('leaves a column without nullable optional, as the post\'s default true', () => {
    const { contract } = imported('004-contract.yaml', {}, seedText('004-contract.yaml').replace('{name: coupon, type: string, nullable: true}', '{name: coupon, type: string}'));
    expect(column(contract, 'coupon')?.required).toBe(false);
  });
});
