import { stringify } from 'yaml';
import { NUMBER_TEXT_YAML_TAG } from '../export/json-text.js';
import { referenceRowsAsWritten } from '../export/reference-row-export.js';
import type { Contract, Sla } from '../contract/model.js';
import { slaSeverity } from './to-odcs-rules.js';
import { custom, schemaObject } from './to-odcs-schema.js';

type Json = Record<string, unknown>;

/**
 * Writes a contract as an ODCS v3.1.0 document that validates against the official JSON Schema.
 * What ODCS has words for goes where ODCS puts it; the rest goes to `contractGate.*` custom
 * properties (see custom-properties.ts), so that parseContract reads back the same contract.
 */
export function exportOdcs(contract: Contract): string {
  const sla = slaProperties(contract);
  const document = {
    apiVersion: 'v3.1.0',
    kind: 'DataContract',
    id: `${contract.name}-v${contract.version.major}`,
    name: contract.name,
    version: contract.version.text,
    status: contract.status,
    ...(contract.description !== undefined ? { description: { purpose: contract.description } } : {}),
    team: team(contract.owner),
    servers: [server(contract)],
    schema: [schemaObject(contract)],
    ...(sla.length > 0 ? { slaProperties: sla } : {}),
    customProperties: customProperties(contract),
  };
  // Quoting by YAML 1.1 rules keeps 06:00, no and 2026-01-01 strings for 1.1 readers (PyYAML) too.
  return stringify(document, { lineWidth: 0, version: '1.1', customTags: [NUMBER_TEXT_YAML_TAG] });
}

/** Members are paged when their username is an address; anything else needs contractGate.notify. */
function team(owner: Contract['owner']): Json {
  const members = owner.notify.filter((address) => address.includes('@')).map((username) => ({ username, role: 'owner' }));
  return { name: owner.team, ...(members.length > 0 ? { members } : {}) };
}

/**
 * The published prefix, without the partition: `{ds}` is not legal in a URI, so the template
 * travels in contractGate.partition. The bucket is the gate's own env var name, a placeholder.
 */
function server(contract: Contract): Json {
  const { format } = contract.produces;
  return {
    server: 'published',
    type: 's3',
    location: `s3://GATE_BUCKET/published/${contract.name}/v${contract.version.major}/`,
    format: format === 'jsonl' ? 'json' : format,
    ...(format === 'jsonl' ? { delimiter: 'new_line' } : {}),
  };
}

function slaProperties(contract: Contract): Json[] {
  const { sla, sunset, name } = contract;
  const properties: Json[] = [];
  if (sla?.maxLagHours !== undefined && sla.freshnessColumn !== undefined) {
    properties.push({ property: 'latency', value: sla.maxLagHours, unit: 'h', element: `${name}.${sla.freshnessColumn}` });
  }
  if (sla?.arrivalBy !== undefined) {
    const zone = sla.timezone ?? 'UTC';
    properties.push({ property: 'timeOfAvailability', value: sla.arrivalBy, description: `the due partition is published by ${sla.arrivalBy} ${zone}` });
  }
  if (sunset !== undefined) properties.push({ property: 'endOfLife', value: sunset });
  return properties;
}

function customProperties(contract: Contract): Json[] {
  const { owner, produces, sla, consumers, compat } = contract;
  return [
    custom('partition', produces.partition),
    custom('compat', compat.mode),
    ...(owner.notify.every((address) => address.includes('@')) ? [] : [custom('notify', [...owner.notify])]),
    ...(sla ? [custom('sla', calendar(sla))] : []),
    ...(consumers.length > 0 ? [custom('consumers', consumers.map((c) => ({ team: c.team, ...(c.notify.length ? { notify: [...c.notify] } : {}), ...(c.columns.length ? { columns: [...c.columns] } : {}) })))] : []),
    // ODCS thresholds are per rule; a tolerance is one budget for the rows breaking any of them.
    ...(contract.onViolation ? [custom('onViolation', { ...contract.onViolation })] : []),
    ...(contract.referenceRows ? [custom('referenceRows', referenceRowsAsWritten(contract))] : []),
  ];
}

/** The SLA settings and rules ODCS has no property for; present (even empty) whenever the contract has an SLA. */
function calendar(sla: Sla): Json {
  const { schedule } = sla;
  const severity = slaSeverity(sla);
  return {
    ...(schedule.kind === 'daily' ? {} : { schedule: schedule.kind === 'cron' ? schedule.expression : schedule.kind }),
    ...(sla.timezone !== undefined ? { timezone: sla.timezone } : {}),
    ...(sla.partitionLag !== 1 ? { partitionLag: sla.partitionLag } : {}),
    ...(sla.graceMinutes !== 0 ? { graceMinutes: sla.graceMinutes } : {}),
    ...(sla.skipDates.length > 0 ? { skipDates: [...sla.skipDates] } : {}),
    ...(sla.freshnessColumn !== undefined && sla.maxLagHours === undefined ? { freshnessColumn: sla.freshnessColumn } : {}),
    // The latency SLA property is the error threshold; ODCS has no second one to warn at.
    ...(sla.warnLagHours !== undefined ? { warnLagHours: sla.warnLagHours } : {}),
    ...(sla.volumeVsHistory ? { volumeVsHistory: { ...sla.volumeVsHistory } } : {}),
    ...(severity ? { severity } : {}),
  };
}
