import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { dbtDrift, readDbtSchema } from '../../lib/export/dbt-drift.js';
import { exportDbt, type DbtOptions } from '../../lib/export/to-dbt.js';
import { contractFrom, ordersContract } from '../fixtures/partition.js';

const orders = ordersContract();
const GENERATED = exportDbt(orders);
const driftOf = (text: string, options: DbtOptions = {}) => dbtDrift(orders, readDbtSchema(text).root, options);
/** The generated file as a value to edit, and back to text. */
const edited = (change: (file: any) => void) => {
  const file = parse(GENERATED);
  change(file);
  return stringify(file);
};
const column = (file: any, name: string) => file.models[0].columns.find((c: { name: string }) => c.name === name);

describe('dbtDrift: what counts as a change to the generated part', () => {
  it('finds the file it generated up to date, with no diff', () => {
    expect(driftOf(GENERATED)).toEqual({ upToDate: true, findings: [], diff: '' });
  });

  it('catches a hand-edited test, showing the committed and the generated line', () => {
    const drift = driftOf(GENERATED.replace('regex: ^ord_[0-9a-f]{8}$', 'regex: ^ord_[0-9a-f]{6}$'));
    expect(drift.upToDate).toBe(false);
    expect(drift.findings).toEqual(['model orders differs']);
    expect(drift.diff).toMatch(/^--- committed\n\+\+\+ generated from orders 1\.2\.0\n@@ /);
    expect(drift.diff).toContain('\n-              regex: ^ord_[0-9a-f]{6}$\n+              regex: ^ord_[0-9a-f]{8}$\n');
  });

  it.each<[string, (file: any) => void, string]>([
    ['a removed test', (f) => column(f, 'status').data_tests.pop(), 'model orders differs'],
    ['an added test', (f) => column(f, 'coupon').data_tests.push('unique'), 'model orders differs'],
    ['a test moved under tests beside data_tests', (f) => (column(f, 'amount').tests = [column(f, 'amount').data_tests.pop()]), 'model orders differs'],
    ['a loosened range', (f) => (column(f, 'amount').data_tests[1]['dbt_utils.accepted_range'].min_value = -1), 'model orders differs'],
    ['a test turned to a warning', (f) => (column(f, 'status').data_tests[0] = { not_null: { config: { severity: 'warn' } } }), 'model orders differs'],
    ['a column the contract lacks', (f) => f.models[0].columns.push({ name: 'extra', data_type: 'varchar' }), 'model orders differs'],
    ['a missing column', (f) => f.models[0].columns.pop(), 'model orders differs'],
    ['an edited data_type', (f) => (column(f, 'amount').data_type = 'decimal(18,2)'), 'model orders differs'],
    ['an unenforced contract', (f) => (f.models[0].config.contract.enforced = false), 'model orders differs'],
    ['an edited model-level test', (f) => (f.models[0].data_tests = []), 'model orders differs'],
    ['edited freshness', (f) => (f.sources[0].tables[0].freshness.error_after.count = 48), 'source table published.orders_v1 differs'],
    ['another location', (f) => (f.sources[0].tables[0].external.location = 's3://elsewhere/'), 'source table published.orders_v1 differs'],
    ['a missing model', (f) => f.models.pop(), 'model orders is missing'],
    ['a missing source table', (f) => f.sources[0].tables.pop(), 'source table published.orders_v1 is missing'],
  ])('catches %s', (_case, change, finding) => {
    const drift = driftOf(edited(change));
    expect(drift.findings).toEqual([finding]);
    expect(drift.diff).not.toBe('');
  });

  it.each<[string, (file: any) => void, string]>([
    ['a disabled model', (f) => (f.models[0].config.enabled = false), 'model orders differs: config.enabled is false'],
    ['a model enabled only off prod', (f) => (f.models[0].config.enabled = "{{ target.name != 'prod' }}"), 'model orders differs: config.enabled is "{{ target.name != \'prod\' }}"'],
    ['a disabled source table', (f) => (f.sources[0].tables[0].config = { enabled: false }), 'source table published.orders_v1 differs: config.enabled is false'],
    ['a disabled source', (f) => (f.sources[0].config = { enabled: false }), 'source published differs: config.enabled is false'],
  ])('catches %s: config.enabled other than true switches its tests off', (_case, change, finding) => {
    const drift = driftOf(edited(change));
    expect(drift.findings).toHaveLength(1);
    expect(drift.findings[0]).toContain(finding);
    expect(drift.diff).toContain('enabled:');
  });

  it('catches model versions, which can exclude a column or empty its tests, and says to remove them', () => {
    const drift = driftOf(edited((f) => Object.assign(f.models[0], { latest_version: 2, versions: [{ v: 1 }, { v: 2, columns: [{ include: 'all', exclude: ['amount'] }] }] })));
    expect(drift.findings).toEqual(['model orders differs: it has versions and latest_version, which the export does not write (a version can drop columns or their tests); remove them']);
    expect(driftOf(edited((f) => (f.models[0].versions = [{ v: 1, columns: [{ name: 'amount', data_tests: [] }] }]))).upToDate).toBe(false);
  });

  it('takes config.enabled: true as the default it is', () => {
    expect(driftOf(edited((f) => ((f.models[0].config.enabled = true), (f.sources[0].config = { enabled: true })))).upToDate).toBe(true);
  });

  it('catches a description the contract no longer has: an owned key is owned even when not written', () => {
    const withoutDescription = { ...orders, description: undefined };
    expect(dbtDrift(withoutDescription, readDbtSchema(GENERATED).root).findings).toEqual(['model orders differs', 'source table published.orders_v1 differs']);
  });

  it('ignores reformatting: key order, quoting, flow style, indentation, comments, column order, a folded description, the tests and arguments spellings', () => {
    const file = parse(GENERATED);
    const model = file.models[0];
    model.columns.reverse();
    file.models[0] = Object.fromEntries(Object.entries(model).reverse());
    column(file, 'amount').tests = column(file, 'amount').data_tests;
    delete column(file, 'amount').data_tests;
    column(file, 'status').data_tests = [{ not_null: {} }, { accepted_values: { arguments: { values: ['placed', 'paid', 'cancelled'] } } }];
    const text = `# ours now\n${stringify(file, { indent: 4, defaultStringType: 'QUOTE_DOUBLE', collectionStyle: 'flow' })}`;
    expect(text).not.toContain('- not_null');
    expect(driftOf(text)).toEqual({ upToDate: true, findings: [], diff: '' });
    const folded = GENERATED.replace('    description: One row per order, as of the end of the partition day.\n', '    description: >\n      One row per order,\n      as of the end of the partition day.\n');
    expect(folded).not.toBe(GENERATED);
    expect(driftOf(folded)).toEqual({ upToDate: true, findings: [], diff: '' });
  });

  it('ignores what the user adds outside the generated part: other models, sources and tables, and keys the export never writes', () => {
    const text = edited((f) => {
      column(f, 'status').meta = { pii: false };
      column(f, 'coupon').quote = true;
      f.models[0].tags = ['finance'];
      f.models[0].config.materialized = 'table';
      f.models[0].config.meta.owner = 'orders-analytics';
      f.models.unshift({ name: 'customers', columns: [{ name: 'id', data_tests: ['unique'] }] });
      f.sources[0].schema = 'lake_published';
      f.sources[0].tables.push({ name: 'customers_v1' });
      f.sources[0].tables[0].external.file_format = 'parquet';
      f.sources.push({ name: 'raw', tables: [{ name: 'orders' }] });
    });
    expect(driftOf(text)).toEqual({ upToDate: true, findings: [], diff: '' });
  });

  it('takes a bound written 0.0 for the generated 0 as the same number, as the test\'s SQL compares it', () => {
    expect(driftOf(GENERATED.replace('min_value: 0\n', 'min_value: 0.0\n'))).toEqual({ upToDate: true, findings: [], diff: '' });
  });

  it('compares int64 bounds past 2^53 digit for digit', () => {
    const wide = contractFrom('name: ids\nversion: 1.0.0\nowner: { team: t, notify: [t@example.com] }\nproduces: { format: parquet }\nschema:\n  columns:\n    - { name: id, type: int64, max: 9223372036854775807 }\n');
    const text = exportDbt(wide);
    expect(dbtDrift(wide, readDbtSchema(text).root).upToDate).toBe(true);
    const drift = dbtDrift(wide, readDbtSchema(text.replace('9223372036854775807', '9223372036854775806')).root);
    expect(drift.diff).toContain('-              max_value: 9223372036854775806\n+              max_value: 9223372036854775807\n');
  });

  it('says which adapter the committed model was exported for when it is not the one checked', () => {
    const snowflake = exportDbt(orders, { adapter: 'snowflake' });
    expect(driftOf(snowflake, { adapter: 'snowflake' }).upToDate).toBe(true);
    expect(driftOf(snowflake)).toMatchObject({ upToDate: false, otherAdapter: 'snowflake' });
  });

  it('reads an empty file as one without the generated part, and reports YAML that is no mapping', () => {
    expect(driftOf('').findings).toEqual(['model orders is missing', 'source published is missing', 'source table published.orders_v1 is missing']);
    expect(readDbtSchema('- a\n- b\n')).toEqual({ error: 'is not a mapping of version, models and sources' });
    expect(readDbtSchema('models: [\n').error).toMatch(/line 2/);
  });
});
