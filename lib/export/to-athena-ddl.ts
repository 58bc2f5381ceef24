import { formatColumnType } from '../contract/column-type.js';
import type { ColumnSpec, Contract, DataFormat } from '../contract/model.js';
import { athenaType, quoteIdentifier, sqlString } from './athena-sql.js';
import { BUCKET_PLACEHOLDER, partitionKeys, publishedLocation, publishedTableName, type PartitionKey } from './published-table.js';

/**
 * `CREATE EXTERNAL TABLE` for Athena (Glue catalog) over the prefix the gate publishes to. Partition
 * projection replaces `MSCK REPAIR` and crawlers: Athena computes partitions from the template.
 */
export function exportAthenaDdl(contract: Contract, options: { location?: string } = {}): string {
  const location = publishedLocation(contract, options.location);
  const keys = partitionKeys(contract.produces.partition);
  const format = contract.produces.format;
  return [
    ...header(contract, location),
    `CREATE EXTERNAL TABLE IF NOT EXISTS ${quoteIdentifier(publishedTableName(contract))} (`,
    contract.schema.columns.map((column) => `  ${columnLine(column, format)}`).join(',\n'),
    ')',
    ...(contract.description === undefined ? [] : [`COMMENT ${sqlString(contract.description)}`]),
    `PARTITIONED BY (${keys.map((key) => `${quoteIdentifier(key.name)} STRING`).join(', ')})`,
    ...storage(format),
    `LOCATION ${sqlString(location)}`,
    'TBLPROPERTIES (',
    tableProperties(format, keys, location).map(([name, value]) => `  ${sqlString(name)} = ${sqlString(value)}`).join(',\n'),
    ');',
    '',
  ].join('\n');
}

function header(contract: Contract, location: string): string[] {
  return [
    `-- Athena table over the partitions contract-gate publishes for ${contract.name} ${contract.version.text}.`,
    '-- Generated from the contract: edit the contract, not this file.',
    ...(location.includes(BUCKET_PLACEHOLDER) ? [`-- Replace ${BUCKET_PLACEHOLDER} with the gate's bucket.`] : []),
    ...(contract.produces.format === 'csv' ? CSV_NOTE : []),
  ];
}

const CSV_NOTE = [
  '-- OpenCSVSerde reads ISO dates and timestamps, and empty (null) numbers, only as strings: every',
  '-- column is STRING, its contract type is in its comment; cast in queries or a view.',
];

function columnLine(column: ColumnSpec, format: DataFormat): string {
  const type = format === 'csv' ? 'STRING' : athenaType(column.type);
  const comment = format === 'csv' ? [formatColumnType(column.type), column.description].filter(Boolean).join(': ') : column.description;
  return `${quoteIdentifier(column.name)} ${type}${comment ? ` COMMENT ${sqlString(comment)}` : ''}`;
}

function storage(format: DataFormat): string[] {
  switch (format) {
    case 'parquet': return ['STORED AS PARQUET'];
    case 'csv': return ["ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde'", `WITH SERDEPROPERTIES ('separatorChar' = ',', 'quoteChar' = '"')`, 'STORED AS TEXTFILE'];
    case 'jsonl': return ["ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'", 'STORED AS TEXTFILE'];
  }
}

function tableProperties(format: DataFormat, keys: readonly PartitionKey[], location: string): [string, string][] {
  const template = `${location}${keys.map((key) => `${key.name}=\${${key.name}}`).join('/')}/`;
  return [
    ...(format === 'csv' ? [['skip.header.line.count', '1'] as [string, string]] : []),
    ['projection.enabled', 'true'],
    ...keys.flatMap(projection),
    ['storage.location.template', template],
  ];
}

/** `{ds}` is a day, `{hh}` an hour 00-23, a literal segment the one value it can take. */
function projection(key: PartitionKey): [string, string][] {
  const at = (property: string, value: string): [string, string] => [`projection.${key.name}.${property}`, value];
  switch (key.kind) {
    case 'date': return [at('type', 'date'), at('format', 'yyyy-MM-dd'), at('range', 'NOW-3YEARS,NOW'), at('interval', '1'), at('interval.unit', 'DAYS')];
    case 'hour': return [at('type', 'integer'), at('range', '0,23'), at('digits', '2')];
    case 'literal': return [at('type', 'enum'), at('values', key.value)];
  }
}
