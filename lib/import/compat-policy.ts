import type { Node } from 'yaml';
import type { ImportContext } from './legacy-shape.js';
import { keepOtherKeys, readCompat } from './legacy-shape.js';

/** What the gate's check-compat does with each kind of change under compat.mode backward. */
const BACKWARD: Readonly<Record<string, 'allow' | 'breaking'>> = { additive_columns: 'allow', rename: 'breaking', type_narrow: 'breaking' };

const WHY: Readonly<Record<string, string>> = {
  additive_columns: 'a new optional column is a minor change',
  rename: 'a rename is a removal plus an addition and needs a new major version',
  type_narrow: 'a narrowed or changed type needs a new major version',
};

/**
 * The pipeline post's `compat: { additive_columns: allow, rename: breaking, type_narrow: breaking }`
 * is what the gate's `compat.mode: backward` decides, key for key, so it is written as that mode
 * with the reading as a comment. A policy the gate decides otherwise (renames allowed, say) is
 * kept as a "not enforced" comment: the gate stays at backward for it. A plain `compat: backward`
 * is the native mode.
 */
export function readCompatPolicy(c: ImportContext, node: Node | null | undefined, path: string): void {
  if (!c.nodes.isMap(node) || c.nodes.child(node, 'mode') !== undefined) {
    readCompat(c, node, path);
    return;
  }
  const keys = Object.keys(BACKWARD).filter((key) => c.nodes.child(node, key) !== undefined);
  if (keys.length === 0) {
    keepOtherKeys(c, node, path, [], { key: 'compat' });
    return;
  }
  c.draft.compat = { mode: 'backward' };
  const agreed = keys.filter((key) => c.nodes.text(c.nodes.child(node, key))?.toLowerCase() === BACKWARD[key]);
  if (agreed.length > 0) c.log.note({ key: 'compat' }, `mode backward is the source's ${agreed.map((key) => `${key}: ${BACKWARD[key]}`).join(', ')}: ${agreed.map((key) => WHY[key]).join('; ')}`);
  for (const key of keys.filter((k) => !agreed.includes(k))) {
    const value = c.nodes.child(node, key);
    c.log.notEnforced(`${path}.${key}`, value, { key: 'compat' }, `compat ${key}: ${c.nodes.text(value) ?? '?'} (under mode backward ${WHY[key]})`);
  }
  keepOtherKeys(c, node, path, Object.keys(BACKWARD), { key: 'compat' });
}
