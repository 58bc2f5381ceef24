import type { Node } from 'yaml';
import type { ImportContext } from './legacy-shape.js';
import { keepOtherKeys, readColumnMap, semver } from './legacy-shape.js';
import { readOwnerValue } from './read-people.js';
import { readArrival } from './read-sla-text.js';

const TOP = ['name', 'version', 'owner', 'description', 'fields', 'guarantees'];

/**
 * The course module's contract, a Python dict literal, which is a YAML flow mapping as it
 * stands (`True`/`False` are YAML booleans): `{ "name": "orders_v1", "fields": { "<column>": {
 * "type": <pandas dtype>, "nullable", "unique", "min", "enum" } }, "guarantees": { "delivery",
 * "backward_compatible_changes_only" } }`. The name carries the major version (`orders_v2` is
 * the module's next version), so it is split into the dataset name and the version.
 */
export function fromCourse(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  readName(c, nodes.child(root, 'name'));
  const version = nodes.child(root, 'version');
  if (version !== undefined) draft.version = semver(c, version, 'version');
  readOwnerValue(c, nodes.child(root, 'owner'), 'owner');
  const description = nodes.text(nodes.child(root, 'description'))?.trim();
  if (description) draft.description = description;
  readColumnMap(c, nodes.child(root, 'fields'), 'fields', 'pandas');
  readGuarantees(c, nodes.child(root, 'guarantees'));
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}

function readName(c: ImportContext, node: Node | null | undefined): void {
  const text = c.nodes.text(node);
  const versioned = text === undefined ? null : /^(.+?)_v(\d+)$/i.exec(text);
  if (!versioned?.[1] || !versioned[2]) {
    c.draft.name = text;
    return;
  }
  c.draft.name = versioned[1];
  c.draft.version = `${Number(versioned[2])}.0.0`;
  c.log.note({ key: 'version' }, `the source's name "${text}" is dataset ${versioned[1]} at major version ${versioned[2]}`);
}

/**
 * `delivery: "at-least-daily by 04:00 UTC"` is the clock SLA; `backward_compatible_changes_only:
 * True` is compat.mode backward (what check-compat then refuses without a major version), False
 * is mode none.
 */
function readGuarantees(c: ImportContext, node: Node | null | undefined): void {
  const { nodes } = c;
  if (node === undefined) return;
  readArrival(c, nodes.child(node, 'delivery'), 'guarantees.delivery');
  const backwardNode = nodes.child(node, 'backward_compatible_changes_only');
  const backward = nodes.value(backwardNode);
  if (typeof backward === 'boolean') {
    c.draft.compat = { mode: backward ? 'backward' : 'none' };
    c.log.note({ key: 'compat' }, `mode ${backward ? 'backward' : 'none'} is the source's backward_compatible_changes_only: ${backward ? 'True' : 'False'}`);
  } else if (backwardNode !== undefined) {
    c.log.error('guarantees.backward_compatible_changes_only', backwardNode, 'expected True or False');
  }
  keepOtherKeys(c, node, 'guarantees', ['delivery', 'backward_compatible_changes_only'], { key: 'sla' });
}
