import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { parseOdcsContract } from '../../lib/odcs/from-odcs.js';
import { yaml } from './fixtures.js';
import { ID, load, odcs, odcsReplacing, odcsWith, problemsIn } from './odcs-doc.js';

describe('ODCS → contract: the basics', () => {
  it('loads a small ODCS document through parseContract, as parseOdcsContract does', () => {
    const text = odcs([...ID, '        required: true', '        description: The order.']);
    const { contract, problems } = load(text);
    expect(problems).toEqual([]);
    expect(contract).toMatchObject({
      name: 'orders', version: { major: 1, minor: 0, patch: 0, text: '1.0.0' }, status: 'active',
      owner: { team: 'orders-platform', notify: ['oncall@example.com'] },
      produces: { format: 'parquet', partition: 'dt={ds}' },
      schema: { grain: [], extraColumns: 'allow', columns: [{ name: 'order_id', typeText: 'string', required: true, unique: false, description: 'The order.' }] },
      consumers: [], compat: { mode: 'backward' },
    });
    expect(contract?.sla).toBeUndefined();
    expect(parseOdcsContract(text, 'orders.v1.odcs.yaml')).toEqual(load(text));
  });

  it('leaves native contracts and ODCS v2 documents to the native reader', () => {
    const native = yaml('name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [t@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:', '    - { name: id, type: string }');
    expect(parseContract(native, 'orders.v1.yaml').problems).toEqual([]);
    const v2 = odcsWith(1, 'apiVersion: v2.2.2');
    expect(problemsIn(v2)[0]).toEqual({ code: 'unknown_key', severity: 'error', path: 'apiVersion', line: 1, column: 1 });
  });

  it('names the dataset after its schema object when the contract has no name (ODCS makes it optional), with a warning', () => {
    const text = odcsWith(4, [], ID);
    expect(problemsIn(text)).toEqual([{ code: 'missing_key', severity: 'warning', path: 'name', line: 1, column: 1 }]);
    expect(load(text).contract?.name).toBe('orders');
  });

  it('normalises an ODCS name to a dataset name with a warning, or refuses one it cannot', () => {
    const spaced = load(odcsWith(4, 'name: Orders Stream'), 'x.yaml');
    expect(spaced.contract?.name).toBe('orders_stream');
    expect(spaced.problems.map((p) => [p.severity, p.path, p.line, p.column, p.message])).toEqual([['warning', 'name', 4, 7, '"Orders Stream" is not a dataset name; it is read as "orders_stream"']]);
    expect(problemsIn(odcsWith(4, 'name: "2024"'))).toEqual([{ code: 'invalid_value', severity: 'error', path: 'name', line: 4, column: 7 }]);
  });

  it('checks the file name against the dataset name and major version, like native contracts', () => {
    expect(load(odcs(ID), 'shipments.v1.odcs.yaml').problems.map((p) => [p.code, p.path, p.line])).toEqual([['name_mismatch', 'name', 4]]);
    expect(load(odcs(ID), 'orders.v2.yaml').problems.map((p) => [p.code, p.path, p.line])).toEqual([['name_mismatch', 'version', 5]]);
  });

  it('maps ODCS statuses: draft and the like are enforced as active, with a warning', () => {
    const draft = load(odcsWith(6, 'status: draft'));
    expect(draft.contract?.status).toBe('active');
    expect(draft.problems.map((p) => [p.severity, p.path, p.line])).toEqual([['warning', 'status', 6]]);
    expect(problemsIn(odcsWith(6, 'status: deprecated'))).toEqual([{ code: 'sunset_required', severity: 'warning', path: 'status', line: 6, column: 9 }]);
    const sunset = load(odcsWith(6, 'status: deprecated', ID, 'slaProperties:', '  - property: endOfLife', '    value: "2027-06-30T00:00:00Z"'));
    expect(sunset.contract).toMatchObject({ status: 'deprecated', sunset: '2027-06-30' });
  });

  it('gates the first of several schema objects with a warning naming the others, or the one contractGate.dataset names', () => {
    const two = odcs(ID, '  - name: customers', '    properties:', '      - name: customer_id', '        logicalType: string');
    expect(problemsIn(two)).toEqual([{ code: 'not_enforced', severity: 'warning', path: 'schema', line: 17, column: 3 }]);
    expect(load(two).problems[0]?.message).toContain('("orders", "customers")');
    expect(load(two).problems[0]?.message).toContain('the first, "orders", is gated');
    expect(load(two).contract?.schema.columns.map((c) => c.name)).toEqual(['order_id']);
    const named = load(`${two}customProperties:\n  - property: contractGate.dataset\n    value: customers\n`);
    expect(named.problems).toEqual([]);
    expect(named.contract?.schema.columns.map((c) => c.name)).toEqual(['customer_id']);
  });
});

describe('ODCS → contract: the grain', () => {
  const column = (name: string, ...more: string[]) => [`      - name: ${name}`, '        logicalType: string', ...more.map((l) => `        ${l}`)];

  it('orders the primary key by primaryKeyPosition, not by declaration', () => {
    const text = odcs([...column('region', 'primaryKey: true', 'primaryKeyPosition: 2'), ...column('note'), ...column('order_id', 'primaryKey: true', 'primaryKeyPosition: 1')]);
    expect(load(text).contract?.schema.grain).toEqual(['order_id', 'region']);
  });

  it('refuses two key columns at one position, at the second', () => {
    const text = odcs([...column('a', 'primaryKey: true', 'primaryKeyPosition: 1'), ...column('b', 'primaryKey: true', 'primaryKeyPosition: 1')]);
    expect(problemsIn(text)).toEqual([{ code: 'invalid_value', severity: 'error', path: 'schema[0].properties[1].primaryKeyPosition', line: 23, column: 9 }]);
  });

  it('takes a schema-level duplicateValues rule over properties as the grain, and refuses one that disagrees with the key', () => {
    const rule = ['    quality:', '      - metric: duplicateValues', '        mustBe: 0', '        arguments:', '          properties: [tenant, order_id]'];
    expect(load(odcs([...column('order_id'), ...column('tenant')], ...rule)).contract?.schema.grain).toEqual(['tenant', 'order_id']);
    const clash = odcs([...column('order_id', 'primaryKey: true'), ...column('tenant')], ...rule);
    expect(problemsIn(clash)).toEqual([{ code: 'invalid_value', severity: 'error', path: 'schema[0].quality[0].arguments.properties', line: 28, column: 23 }]);
  });
});

describe('ODCS → contract: quality rules', () => {
  const rules = (...lines: string[]) => odcs([...ID, '        quality:', ...lines.map((l) => `          ${l}`)]);

  it('reads nullValues as required, invalidValues as an enum or a pattern, duplicateValues as unique', () => {
    const text = rules(
      '- metric: nullValues', '  mustBe: 0',
      '- metric: invalidValues', '  arguments: { validValues: [placed, paid, null] }', '  mustBe: 0',
      '- metric: invalidValues', '  arguments: { pattern: "^ord_" }', '  mustBeLessThan: 1',
      '- type: library', '  metric: duplicateValues', '  mustBe: 0',
    );
    const { contract, problems } = load(text);
    expect(problems).toEqual([]);
    expect(contract?.schema.columns[0]).toMatchObject({ required: true, enum: ['placed', 'paid'], pattern: '^ord_', unique: true });
  });

  it('reads rowCount on the schema object as the volume band, strict bounds made inclusive', () => {
    const band = (...lines: string[]) => load(odcs(ID, '    quality:', ...lines.map((l) => `      ${l}`))).contract?.sla;
    expect(band('- metric: rowCount', '  mustBeGreaterThan: 1000')).toMatchObject({ minRows: 1001, maxRows: undefined });
    expect(band('- metric: rowCount', '  mustBeLessThan: 10')).toMatchObject({ maxRows: 9 });
    expect(band('- metric: rowCount', '  mustBeBetween: [5, 50]', '- metric: rowCount', '  mustBeGreaterOrEqualTo: 8')).toMatchObject({ minRows: 8, maxRows: 50 });
  });

  it('warns, with its path, about each rule no contract-gate check carries, and enforces nothing of it', () => {
    const text = rules(
      '- type: sql', '  query: SELECT COUNT(*) FROM orders WHERE order_id IS NULL', '  mustBe: 0',
      '- type: custom', '  engine: soda', '  implementation: "type: duplicate_percent"',
      '- type: text', '  description: Verified by hand.',
      '- metric: distinctValues', '  mustBeGreaterThan: 3',
      '- metric: nullValues', '  mustBeLessThan: 3', '  unit: days',
      '- metric: nullValues', '  mustBe: 0', '  severity: critical',
      '- metric: duplicateValues', '  mustBeLessThan: 5',
    );
    const { contract, problems } = load(text);
    expect(problems.map(({ code, severity, path, line, column }) => ({ code, severity, path, line, column }))).toEqual([
      { code: 'rule_not_for_type', severity: 'warning', path: 'schema[0].properties[0].quality[0]', line: 22, column: 13 },
      { code: 'rule_not_for_type', severity: 'warning', path: 'schema[0].properties[0].quality[1]', line: 25, column: 13 },
      { code: 'rule_not_for_type', severity: 'warning', path: 'schema[0].properties[0].quality[2]', line: 28, column: 13 },
      { code: 'rule_not_for_type', severity: 'warning', path: 'schema[0].properties[0].quality[3]', line: 30, column: 13 },
      { code: 'rule_not_for_type', severity: 'warning', path: 'schema[0].properties[0].quality[4].mustBeLessThan', line: 33, column: 13 },
      { code: 'rule_not_for_type', severity: 'warning', path: 'schema[0].properties[0].quality[5].severity', line: 37, column: 23 },
      { code: 'rule_not_for_type', severity: 'warning', path: 'schema[0].properties[0].quality[6].mustBeLessThan', line: 39, column: 13 },
    ]);
    expect(problems.map((p) => p.message.split(' is not enforced')[0])).toEqual([
      'sql quality rule', 'custom quality rule', 'text quality rule', 'quality metric "distinctValues"', 'quality metric "nullValues"', 'quality metric "nullValues"', 'quality metric "duplicateValues"',
    ]);
    expect(problems[5]?.message).toContain('contract-gate knows error (blocks the publish) and warning or info (reported, not blocking)');
    expect(contract?.schema.columns[0]).toMatchObject({ required: false, unique: false });
    expect(contract?.onViolation).toBeUndefined();
  });

  it('reads a warning or info quality rule as its rule at severity warn, unless the property states the rule itself', () => {
    const column = (...lines: string[]) => load(rules(...lines)).contract?.schema.columns[0];
    expect(column('- metric: nullValues', '  mustBe: 0', '  severity: warning')).toMatchObject({ required: true, severity: { required: 'warn' } });
    expect(column('- metric: invalidValues', '  arguments: { validValues: [a, b] }', '  mustBe: 0', '  severity: info')).toMatchObject({ enum: ['a', 'b'], severity: { enum: 'warn' } });
    // Several statements of one rule all hold: an error among them makes it an error.
    expect(column('- metric: duplicateValues', '  mustBe: 0', '  severity: warning', '- metric: duplicateValues', '  mustBe: 0')?.severity).toBeUndefined();
    const stated = load(odcs([...ID, '        required: true', '        quality:', '          - { metric: nullValues, mustBe: 0, severity: warning }'])).contract?.schema.columns[0];
    expect(stated).toMatchObject({ required: true });
    expect(stated?.severity).toBeUndefined();
  });

  it('reads a threshold of failing rows as the contract\'s on_violation, with a warning saying what it became', () => {
    const read = (...lines: string[]) => load(rules(...lines));
    const share = read('- metric: nullValues', '  mustBeLessThan: 2', '  unit: percent');
    expect(share.contract).toMatchObject({ onViolation: { rowTolerance: 0.02 }, schema: { columns: [{ required: true }] } });
    expect(share.problems.map((p) => [p.code, p.severity, p.path])).toEqual([['not_enforced', 'warning', 'schema[0].properties[0].quality[0].mustBeLessThan']]);
    expect(share.problems[0]?.message).toContain("read as the contract's on_violation, { rowTolerance: 0.02 }");
    expect(read('- metric: nullValues', '  mustBeLessThan: 100', '  unit: rows').contract?.onViolation).toEqual({ maxInvalidRows: 99 });
    expect(read('- metric: invalidValues', '  arguments: { validValues: [a] }', '  mustBeLessOrEqualTo: 10').contract?.onViolation).toEqual({ maxInvalidRows: 10 });
    // A warning rule stops nothing, so its threshold means nothing to the gate.
    expect(read('- metric: nullValues', '  mustBeLessThan: 2', '  unit: percent', '  severity: warning').contract?.onViolation).toBeUndefined();
  });

  it('keeps the smallest threshold for every row-level rule, and warns about the others', () => {
    const text = odcs([
      ...ID, '        quality:', '          - { metric: nullValues, mustBeLessThan: 5, unit: percent }',
      '      - name: status', '        logicalType: string', '        quality:', '          - { metric: invalidValues, arguments: { validValues: [a] }, mustBeLessOrEqualTo: 1, unit: percent }',
    ]);
    const { contract, problems } = load(text);
    expect(contract?.onViolation).toEqual({ rowTolerance: 0.01 });
    expect(problems.map((p) => [p.path, p.message.slice(0, 40)])).toEqual([
      ['schema[0].properties[0].quality[0].mustBeLessThan', 'the threshold { rowTolerance: 0.05 } is '],
      ['schema[0].properties[1].quality[0].mustBeLessOrEqualTo', "read as the contract's on_violation, { r"],
    ]);
  });

  it('lets contractGate.onViolation say the tolerance, the rules\' thresholds then not enforced', () => {
    const text = `${rules('- metric: nullValues', '  mustBeLessThan: 5', '  unit: percent')}customProperties:\n  - property: contractGate.onViolation\n    value: { maxInvalidRows: 20 }\n`;
    const { contract, problems } = load(text);
    expect(contract?.onViolation).toEqual({ maxInvalidRows: 20 });
    expect(problems.map((p) => [p.code, p.path])).toEqual([['rule_not_for_type', 'schema[0].properties[0].quality[0].mustBeLessThan']]);
    expect(problems[0]?.message).toContain('contractGate.onViolation says the contract\'s tolerance; the rule itself is enforced');
    const both = load(`${odcs(ID)}customProperties:\n  - property: contractGate.onViolation\n    value: { maxInvalidRows: 20, rowTolerance: 0.1 }\n`);
    expect(both.problems.map((p) => p.code)).toEqual(['conflicting_keys']);
  });
});

describe('ODCS → contract: SLA properties', () => {
  const COLUMNS = [...ID, '      - name: updated_at', '        logicalType: timestamp'];
  const sla = (...lines: string[]) => odcs(COLUMNS, 'slaProperties:', ...lines.map((l) => `  ${l}`));

  it('reads latency on an element as the freshness column and its lag in hours', () => {
    const { contract, problems } = load(sla('- property: latency', '  value: 4', '  unit: d', '  element: orders.updated_at'));
    expect(problems).toEqual([]);
    expect(contract?.sla).toMatchObject({ freshnessColumn: 'updated_at', maxLagHours: 96 });
  });

  it('reads timeOfAvailability as arrival_by, its UTC offset as a fixed-offset zone', () => {
    const { contract, problems } = load(sla('- property: timeOfAvailability', '  value: 09:00-08:00'));
    expect(problems).toEqual([]);
    expect(contract?.sla).toMatchObject({ arrivalBy: '09:00', timezone: 'Etc/GMT+8', schedule: { kind: 'daily' } });
  });

  it('reads a deadline without an offset as UTC, with a warning, unless contractGate.sla names the zone', () => {
    const bare = load(sla('- property: timeOfAvailability', '  value: "06:30"'));
    expect(bare.contract?.sla).toMatchObject({ arrivalBy: '06:30', timezone: 'UTC' });
    expect(bare.problems.map(({ severity, path, line, column }) => ({ severity, path, line, column }))).toEqual([{ severity: 'warning', path: 'slaProperties[0].value', line: 25, column: 12 }]);
    const zoned = load(`${sla('- property: timeOfAvailability', '  value: "06:30"')}customProperties:\n  - property: contractGate.sla\n    value: { timezone: Europe/Berlin, graceMinutes: 20 }\n`);
    expect(zoned.problems).toEqual([]);
    expect(zoned.contract?.sla).toMatchObject({ arrivalBy: '06:30', timezone: 'Europe/Berlin', graceMinutes: 20 });
  });

  it('refuses latency without an element or on a column that is not a date or timestamp', () => {
    expect(problemsIn(sla('- property: latency', '  value: 2', '  unit: h'))).toEqual([{ code: 'freshness_column_missing', severity: 'error', path: 'slaProperties[0].element', line: 24, column: 5 }]);
    expect(problemsIn(sla('- property: latency', '  value: 2', '  unit: h', '  element: order_id'))).toEqual([{ code: 'rule_not_for_type', severity: 'error', path: 'slaProperties[0].element', line: 27, column: 14 }]);
  });

  it('refuses latency on a column left out of the checks, rather than checking nothing', () => {
    const text = odcs([...COLUMNS, '      - name: payload', '        logicalType: object'], 'slaProperties:', '  - { property: latency, value: 1, unit: h, element: payload }');
    expect(problemsIn(text).filter((p) => p.severity === 'error')).toEqual([{ code: 'rule_not_for_type', severity: 'error', path: 'slaProperties[0].element', line: 26, column: 54 }]);
  });

  it('warns about SLA properties it does not enforce', () => {
    expect(problemsIn(sla('- property: retention', '  value: 3', '  unit: y'))).toEqual([{ code: 'rule_not_for_type', severity: 'warning', path: 'slaProperties[0]', line: 24, column: 5 }]);
  });
});

describe('ODCS → contract: owner, servers and custom properties', () => {
  it('pages current members with an e-mail username, or contractGate.notify', () => {
    const team = ['team:', '  name: orders-platform', '  members:', '    - { username: old@example.com, dateOut: "2024-01-01" }', '    - { username: jdoe }', '    - { username: now@example.com }'];
    expect(load(odcsReplacing(7, 10, team)).contract?.owner).toEqual({ team: 'orders-platform', notify: ['now@example.com'] });
    const legacy = ['team:', '  - { username: now@example.com, role: owner }'];
    expect(problemsIn(odcsReplacing(7, 10, legacy)).map((p) => [p.code, p.path, p.line])).toEqual([['missing_key', 'team', 8]]);
    expect(load(odcsReplacing(7, 10, legacy, ID, 'customProperties:', '  - { property: contractGate.team, value: orders-platform }')).contract?.owner)
      .toEqual({ team: 'orders-platform', notify: ['now@example.com'] });
    const nobody = odcsWith(10, '    - username: jdoe');
    expect(problemsIn(nobody)).toEqual([{ code: 'missing_key', severity: 'error', path: 'team.members', line: 8, column: 3 }]);
    expect(load(`${nobody}customProperties:\n  - { property: contractGate.notify, value: ["#orders-alerts"] }\n`).contract?.owner.notify).toEqual(['#orders-alerts']);
  });

  it('takes the partition template from the location tail and json as json lines', () => {
    const hourly = load(odcsWith(14, '    location: s3://lake/orders/dt={ds}/hr={hh}/*.json', ID).replace('format: parquet', 'format: json'));
    expect(hourly.contract?.produces).toEqual({ format: 'jsonl', partition: 'dt={ds}/hr={hh}' });
    expect(load(odcsWith(14, '    location: s3://lake/orders/')).contract?.produces.partition).toBe('dt={ds}');
    expect(problemsIn(odcsWith(14, '    location: s3://lake/orders/year={yyyy}/'))).toEqual([{ code: 'invalid_value', severity: 'error', path: 'servers[0].location', line: 14, column: 15 }]);
    expect(problemsIn(odcsWith(15, '    format: avro'))).toEqual([{ code: 'invalid_value', severity: 'error', path: 'servers[0].format', line: 15, column: 13 }]);
  });

  it('warns about an unknown ODCS key and refuses an unknown contractGate key, each with a suggestion', () => {
    const text = odcs([...ID, '        primaryKye: true', '        customProperties:', '          - { property: contractGate.notInFutur, value: true }']);
    const { problems } = load(text);
    expect(problems.map(({ code, severity, path, line }) => ({ code, severity, path, line }))).toEqual([
      { code: 'unknown_key', severity: 'warning', path: 'schema[0].properties[0].primaryKye', line: 21 },
      { code: 'unknown_key', severity: 'error', path: 'schema[0].properties[0].customProperties[0].property', line: 23 },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      '"primaryKye" is not an ODCS v3 key here and is ignored; did you mean "primaryKey"?',
      'unknown custom property "contractGate.notInFutur" at this level; did you mean "contractGate.notInFuture"?',
    ]);
  });
});

describe('ODCS → contract: types and options', () => {
  const typed = (...lines: string[]) => load(odcs(['      - name: v', ...lines.map((l) => `        ${l}`)]));

  it('turns exclusive bounds inclusive where values are discrete, and warns where they are not', () => {
    expect(typed('logicalType: integer', 'logicalTypeOptions: { exclusiveMinimum: 0, exclusiveMaximum: 100 }').contract?.schema.columns[0]).toMatchObject({ min: 1, max: 99 });
    expect(typed('logicalType: date', 'logicalTypeOptions: { exclusiveMinimum: "2020-01-01" }').contract?.schema.columns[0]?.min).toBe(Date.parse('2020-01-02'));
    expect(typed('physicalType: "decimal(6,2)"', 'logicalType: number', 'logicalTypeOptions: { exclusiveMinimum: 0 }').contract?.schema.columns[0]?.min).toBe(0.01);
    const float = typed('logicalType: number', 'logicalTypeOptions: { exclusiveMinimum: 0 }');
    expect(float.contract?.schema.columns[0]?.min).toBeUndefined();
    expect(float.problems.map((p) => [p.severity, p.path])).toEqual([['warning', 'schema[0].properties[0].logicalTypeOptions.exclusiveMinimum']]);
  });

  it('keeps the tighter bound when an inclusive and an exclusive one are both given', () => {
    const both = 'logicalTypeOptions: { minimum: 0, exclusiveMinimum: 5, maximum: 100, exclusiveMaximum: 50 }';
    expect(typed('logicalType: integer', both).contract?.schema.columns[0]).toMatchObject({ min: 6, max: 49 });
    const loose = 'logicalTypeOptions: { minimum: 10, exclusiveMinimum: 5, maximum: 40, exclusiveMaximum: 50 }';
    expect(typed('logicalType: integer', loose).contract?.schema.columns[0]).toMatchObject({ min: 10, max: 40 });
    const decimal = typed('physicalType: "decimal(6,2)"', 'logicalType: number', 'logicalTypeOptions: { minimum: 0, exclusiveMinimum: 0, maximum: 1, exclusiveMaximum: 1 }');
    expect(decimal.problems).toEqual([]);
    expect(decimal.contract?.schema.columns[0]).toMatchObject({ min: 0.01, max: 0.99 });
  });

  it('reads string options and refuses one on a column of another type', () => {
    expect(typed('logicalType: string', 'logicalTypeOptions: { minLength: 2, maxLength: 5, pattern: "^[a-z]+$" }').contract?.schema.columns[0]).toMatchObject({ minLength: 2, maxLength: 5, pattern: '^[a-z]+$' });
    expect(typed('logicalType: string', 'logicalTypeOptions: { format: uuid }').contract?.schema.columns[0]?.pattern).toMatch(/^\^\[0-9a-fA-F\]\{8\}-/);
    expect(typed('logicalType: integer', 'physicalType: int', 'logicalTypeOptions: { pattern: "x" }').problems.map((p) => [p.code, p.severity])).toEqual([['unknown_key', 'warning']]);
    expect(typed('physicalType: int').problems).toEqual([]);
  });

  it('leaves a nested column out of the checks with a warning, and refuses it as a key column', () => {
    const nested = typed('logicalType: object');
    expect(nested.problems.map((p) => [p.severity, p.path, p.line])).toEqual([['warning', 'schema[0].properties[0]', 19]]);
    expect(nested.problems[0]?.message).toContain('left out of the checks');
    expect(load(odcs([...ID, '      - name: v', '        logicalType: array', '        primaryKey: true'])).problems.filter((p) => p.severity === 'error').map((p) => p.path))
      .toEqual(['schema[0].properties[1].primaryKey']);
  });

  it('reads contractGate rules of a property: requiredWhen, notInFuture, default, type', () => {
    const text = odcs([...ID, '      - name: at', '        logicalType: string', '        customProperties:',
      '          - { property: contractGate.type, value: timestamp }',
      '          - { property: contractGate.notInFuture, value: true }',
      '          - { property: contractGate.requiredWhen, value: { column: order_id, in: [x] } }',
      '          - { property: contractGate.default, value: "1970-01-01T00:00:00Z" }']);
    const { contract, problems } = load(text);
    expect(problems).toEqual([]);
    expect(contract?.schema.columns[1]).toMatchObject({ type: { kind: 'timestamp' }, notInFuture: true, requiredWhen: { column: 'order_id', in: ['x'] }, default: '1970-01-01T00:00:00Z' });
  });
});
