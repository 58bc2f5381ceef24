import { describe, expect, it } from 'vitest';
import { exportAthenaDdl } from '../../lib/export/to-athena-ddl.js';
import { expectGolden } from '../fixtures/golden.js';
import { contractFrom, ordersContract } from '../fixtures/partition.js';

const lines = (sql: string) => sql.split('\n');

function ddlOf(yaml: string, location?: string): string {
  return exportAthenaDdl(contractFrom(yaml), location === undefined ? {} : { location });
}

const HEAD = 'version: 1.0.0\nowner: { team: t, notify: [t@example.com] }\n';

describe('the Athena DDL export of the orders contract', () => {
  const sql = exportAthenaDdl(ordersContract());

  it('matches the golden file', () => {
    expectGolden('orders.athena.sql', sql);
  });

  it('creates an external table per major version with each column in its Athena type', () => {
    expect(sql).toContain('CREATE EXTERNAL TABLE IF NOT EXISTS `orders_v1` (\n');
    expect(lines(sql)).toEqual(expect.arrayContaining([
      '  `order_id` STRING,',
      '  `amount` DECIMAL(12,2),',
      '  `refund_amount` DOUBLE,',
      '  `ordered_at` TIMESTAMP,',
      '  `coupon` STRING',
    ]));
  });

  it('partitions by dt and projects it as a date over the published prefix, with a placeholder bucket', () => {
    expect(lines(sql)).toEqual(expect.arrayContaining([
      'PARTITIONED BY (`dt` STRING)',
      'STORED AS PARQUET',
      "LOCATION 's3://${BUCKET}/published/orders/v1/'",
      "  'projection.dt.type' = 'date',",
      "  'projection.dt.format' = 'yyyy-MM-dd',",
      "  'projection.dt.range' = 'NOW-3YEARS,NOW',",
      "  'storage.location.template' = 's3://${BUCKET}/published/orders/v1/dt=${dt}/'",
      "-- Replace ${BUCKET} with the gate's bucket.",
    ]));
  });

  it('uses the location it is given, adding the trailing slash', () => {
    const located = exportAthenaDdl(ordersContract(), { location: 's3://lake/published/orders/v1' });
    expect(located).toContain("LOCATION 's3://lake/published/orders/v1/'");
    expect(located).toContain("'storage.location.template' = 's3://lake/published/orders/v1/dt=${dt}/'");
    expect(located).not.toContain('${BUCKET}');
  });
});

describe('the Athena DDL export of other contracts', () => {
  it('projects an hour partition as a two-digit integer and a literal segment as a one-value enum', () => {
    const sql = ddlOf(`name: clicks\n${HEAD}produces: { format: parquet, partition: "region=eu/dt={ds}/hr={hh}" }\nschema:\n  columns:\n    - { name: id, type: int64 }\n`);
    expect(lines(sql)).toEqual(expect.arrayContaining([
      'PARTITIONED BY (`region` STRING, `dt` STRING, `hr` STRING)',
      "  'projection.region.type' = 'enum',",
      "  'projection.region.values' = 'eu',",
      "  'projection.hr.type' = 'integer',",
      "  'projection.hr.range' = '0,23',",
      "  'projection.hr.digits' = '2',",
      "  'storage.location.template' = 's3://${BUCKET}/published/clicks/v1/region=${region}/dt=${dt}/hr=${hr}/'",
    ]));
  });

  it('reads CSV with OpenCSVSerde, skips the header, and keeps every column STRING with its contract type in the comment', () => {
    const sql = ddlOf(`name: rates\n${HEAD}produces: { format: csv }\nschema:\n  columns:\n    - { name: day, type: date, description: Trading day }\n    - { name: rate, type: "decimal(9,6)" }\n`);
    expect(lines(sql)).toEqual(expect.arrayContaining([
      "  `day` STRING COMMENT 'date: Trading day',",
      "  `rate` STRING COMMENT 'decimal(9,6)'",
      "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde'",
      'STORED AS TEXTFILE',
      "  'skip.header.line.count' = '1',",
    ]));
  });

  it('reads JSON Lines with the OpenX JSON SerDe and typed columns', () => {
    const sql = ddlOf(`name: events\n${HEAD}produces: { format: jsonl }\nschema:\n  columns:\n    - { name: at, type: timestamp_ntz }\n    - { name: n, type: int32 }\n    - { name: ok, type: boolean }\n    - { name: x, type: float32 }\n    - { name: raw, type: binary }\n    - { name: d, type: date }\n`);
    expect(sql).toContain("ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'\nSTORED AS TEXTFILE\n");
    expect(sql).toContain('  `at` TIMESTAMP,\n  `n` INT,\n  `ok` BOOLEAN,\n  `x` FLOAT,\n  `raw` BINARY,\n  `d` DATE\n');
    expect(sql).not.toContain('skip.header');
  });

  it('escapes quotes, backslashes and line breaks in comments and backticks in names', () => {
    const description = "Customer's \\\\ notes\\nsecond line";
    const sql = ddlOf(`name: my-data\n${HEAD}description: "it's here"\nproduces: { format: parquet }\nschema:\n  columns:\n    - { name: "we\`ird", type: string, description: "${description}" }\n`);
    expect(sql).toContain("CREATE EXTERNAL TABLE IF NOT EXISTS `my_data_v1` (");
    expect(sql).toContain("  `we``ird` STRING COMMENT 'Customer\\'s \\\\ notes second line'\n");
    expect(sql).toContain("COMMENT 'it\\'s here'\n");
  });
});
