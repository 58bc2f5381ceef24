import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../lib/compat/diff-contracts.js';
import { markdownSections } from '../../lib/compat/markdown-sections.js';
import { migrationFileName, migrationGaps, migrationRefusal, type MigrationInput } from '../../lib/compat/migration-document.js';
import { migrationSkeleton } from '../../lib/compat/migration-skeleton.js';
import { applyEdits, loadText, ORDERS_V1 } from './contract-edits.js';
import { DEPRECATED_V1, fillSkeleton, V2, V2_DOCUMENT } from './migration-fixture.js';

function input(oldText = DEPRECATED_V1, nextText = V2): MigrationInput {
  const [old, next] = [loadText(oldText), loadText(nextText)];
  return { old, next, diff: diffContracts(old, next) };
}

const gaps = (text: string, from = input()) => migrationGaps(from, text);

describe('a migration document', () => {
  it('is named after the dataset and both majors, as the seed names user_events_v1_to_v2.md', () => {
    expect(migrationFileName('user_events', 1, 2)).toBe('user_events_v1_to_v2.md');
  });

  it('passes when it names every breaking change, the window and the v1 sunset the contract gives', () => {
    expect(gaps(V2_DOCUMENT)).toEqual([]);
  });

  it('lists each breaking change it does not name: a column by its name, a change of the whole dataset by its first word', () => {
    const silent = V2_DOCUMENT.replace(/^- `coupon`.*\n/m, '').replace(/^- The grain.*\n/m, '- Orders are kept per update now.\n');
    expect(gaps(silent)).toEqual(['the "What changed and why" section does not name 2 breaking changes diff finds: coupon (column_removed), grain (grain_changed)']);
  });

  it('takes a name only as a whole word and only in the "what changed" section', () => {
    const elsewhere = V2_DOCUMENT.replace(/^- `coupon`.*\n/m, '- `coupon_code` stays.\n').replace('dim_coupons', 'dim_coupons, coupon');
    expect(gaps(elsewhere)).toEqual(['the "What changed and why" section does not name the breaking change diff finds: coupon (column_removed)']);
  });

  it('needs each of the seed\'s four sections, found by a word of its heading, and none empty', () => {
    const noAction = V2_DOCUMENT.slice(0, V2_DOCUMENT.indexOf('## Action'));
    expect(gaps(noAction)).toEqual(['no "## Action required from consumers" section (a heading with "action…")']);
    const emptyModels = V2_DOCUMENT.replace('- stg_orders, fct_revenue, dim_coupons.\n', '');
    expect(gaps(emptyModels)).toEqual(['the "Affected downstream models" section (line 8) is empty']);
    const tbd = V2_DOCUMENT.replace('- stg_orders, fct_revenue, dim_coupons.', '- **TBD**\n\nn/a').replace('- Read coupons from coupons v1; deduplicate orders on (order_id, updated_at).', '...');
    expect(gaps(tbd)).toEqual(['the "Affected downstream models" section (line 8) is empty', 'the "Action required from consumers" section (line 19) is empty']);
    const ownWords = V2_DOCUMENT.replace('## What changed and why', '## Changes').replace('## Deprecation timeline', '### The window');
    expect(gaps(ownWords)).toEqual([]);
  });

  it('refuses a sunset that is not the old contract\'s, and a timeline without the sunset or a date the window opens', () => {
    const later = V2_DOCUMENT.replace('- 2027-01-31: v1 sunset', '- 2027-02-28: v1 sunset');
    expect(gaps(later)).toEqual([
      'line 15 gives the sunset as 2027-02-28, but the sunset of orders v1 (1.3.0) is 2027-01-31',
      'the "Deprecation timeline" section does not give v1\'s sunset, 2027-01-31 (the sunset of orders v1 (1.3.0))',
    ]);
    const noOpening = V2_DOCUMENT.replace('- 2027-01-10: v2 is published beside v1; the window opens.\n', '- Three weeks.\n');
    expect(gaps(noOpening)).toEqual(['the "Deprecation timeline" section gives no date before the sunset 2027-01-31 on which the window opens (v1 and the new major published side by side)']);
  });

  it('refuses an old-major sunset that is not after today, and takes it the day before', () => {
    const at = (iso: string) => ({ ...input(), now: Date.parse(iso) });
    expect(gaps(V2_DOCUMENT, at('2027-01-31T00:00:00Z'))).toEqual([
      'the sunset of orders v1 (1.3.0), 2027-01-31, is not after today (2027-01-31): v1 would retire at once, with no window beside the new major; move the sunset in its contract (and the timeline) to a day after the window opens',
    ]);
    expect(gaps(V2_DOCUMENT, at('2027-01-30T23:00:00Z'))).toEqual([]);
  });

  it('cannot pass while the old major is active or has no sunset: the contract must say when it ends', () => {
    const active = input(applyEdits(ORDERS_V1, [['version: 1.2.0', 'version: 1.3.0']]));
    expect(gaps(V2_DOCUMENT, active)).toEqual([
      'orders v1 (1.3.0) is active with no sunset: set status: deprecated and sunset: YYYY-MM-DD in its contract, the day the gate retires it, and give that date in the timeline',
    ]);
  });

  it('counts nothing inside an HTML comment, which does not render: not a name, a heading or a date', () => {
    const hidden = V2_DOCUMENT.replace(/^- `coupon`.*\n/m, '<!-- coupon -->\n').replace('## Action required from consumers', '<!--\n## Action required from consumers');
    expect(gaps(hidden)).toEqual([
      'no "## Action required from consumers" section (a heading with "action…")',
      'the "What changed and why" section does not name the breaking change diff finds: coupon (column_removed)',
    ]);
    expect(gaps(V2_DOCUMENT.replace('# orders v1 to v2', '# orders v1 to v2 <!-- draft, sunset 2027-03-01 -->'))).toEqual([]);
  });

  it('needs a heading of its own for each section: one heading naming all four is one section', () => {
    const one = '## Changed, affected, timeline, action\ncoupon and grain. Window opens 2027-01-10; v1 sunset 2027-01-31. stg_orders.\n';
    expect(gaps(one).slice(0, 3)).toEqual([
      'no "## Affected downstream models" section (a heading with "affect…" or "downstream"); "Changed, affected, timeline, action" (line 1) is another part\'s heading: each part needs a heading of its own',
      'no "## Deprecation timeline" section (a heading with "timeline", "window" or "sunset"); "Changed, affected, timeline, action" (line 1) is another part\'s heading: each part needs a heading of its own',
      'no "## Action required from consumers" section (a heading with "action…"); "Changed, affected, timeline, action" (line 1) is another part\'s heading: each part needs a heading of its own',
    ]);
  });

  it('matches a heading word by its stem and reads setext headings', () => {
    const stems = V2_DOCUMENT.replace('## What changed and why', '## Changes').replace('## Action required from consumers', '## Consumer actions').replace('## Affected downstream models', '## Models it affects');
    expect(gaps(stems)).toEqual([]);
    const setext = V2_DOCUMENT.replace(/^## (.*)$/gm, (_, title: string) => `${title}\n${'-'.repeat(title.length)}`).replace('# orders v1 to v2', 'orders v1 to v2\n===============');
    expect(gaps(setext)).toEqual([]);
    expect(markdownSections('Title\n=====\n- item\n---\ntext\n').map((s) => [s.title, s.level, s.line])).toEqual([['Title', 1, 1]]);
  });

  it('reads headings in fenced code as code', () => {
    const fenced = '# t\n```md\n## What changed\n```\n## Real\nx\n';
    expect(markdownSections(fenced).map((s) => s.title)).toEqual(['t', 'Real']);
  });
});

describe('the migration skeleton', () => {
  it('has the seed\'s headings, the breaking changes and the sunset, and is refused until its placeholders are written', () => {
    const skeleton = migrationSkeleton(input());
    for (const heading of ['## What changed and why', '## Affected downstream models', '## Deprecation timeline', '## Action required from consumers']) expect(skeleton).toContain(heading);
    expect(skeleton).toContain('- `coupon` (column_removed): column "coupon" was removed');
    expect(skeleton).toContain('- `grain` (grain_changed): the grain went from [order_id] to [order_id, updated_at]');
    expect(skeleton).toContain('- v1 sunset: 2027-01-31 (the `sunset` of orders 1.3.0)');
    expect(gaps(skeleton)).toEqual([
      'the "Deprecation timeline" section gives no date before the sunset 2027-01-31 on which the window opens (v1 and the new major published side by side)',
      '4 TODO(migration) placeholders left to write (lines 13, 19, 23, 28)',
    ]);
  });

  it('is refused with its markers deleted but its questions left, listing each line still asking', () => {
    const lazy = migrationSkeleton(input()).replace(/TODO\(migration\) /g, '').replace('YYYY-MM-DD', '2027-01-10');
    expect(gaps(lazy)).toEqual([
      '3 lines of the skeleton left as it asks, not answered (write what it asks for): ' +
        'line 13: "Why: why v2 changes this, and what it gives that v1 could not."; ' +
        'line 19: "- the downstream models (dbt models, dashboards, exports) that read what changed."; ' +
        'line 28: "- what each consumer changes to read v2, and by when (before the sunset)."',
    ]);
    expect(gaps(migrationSkeleton(input()).replace(/TODO\(migration\) /g, ''))).toContainEqual(expect.stringMatching(/^4 lines of the skeleton .* line 23: "- Window opens: YYYY-MM-DD, the day v2/));
  });

  it('takes the marker in any case as a placeholder left to write', () => {
    expect(gaps(fillSkeleton(migrationSkeleton(input())).replace('stg_orders, fct_revenue.', 'todo(migration) fill in'))).toEqual(['1 TODO(migration) placeholder left to write (line 19)']);
  });

  it('passes its own check once the placeholders are filled', () => {
    expect(gaps(fillSkeleton(migrationSkeleton(input())))).toEqual([]);
  });

  it('leaves the sunset to write when the old major has none, and the check still asks the contract for it', () => {
    const active = input(applyEdits(ORDERS_V1, [['version: 1.2.0', 'version: 1.3.0']]));
    const filled = fillSkeleton(migrationSkeleton(active));
    expect(filled).toContain('- v1 sunset: TODO(migration) set status: deprecated and sunset: YYYY-MM-DD in the v1 contract');
    expect(gaps(filled, active)[0]).toMatch(/^orders v1 \(1\.3\.0\) is active with no sunset/);
  });
});

describe('the refusal', () => {
  it('names the file to write and the command that starts it when there is none', () => {
    const refusal = migrationRefusal(input(), { path: 'contracts/migrations/orders_v1_to_v2.md' }, 'contract-gate diff a b --migration-skeleton c');
    expect(refusal).toBe('orders v2 is a new major and needs a migration document: write contracts/migrations/orders_v1_to_v2.md, naming what changed, the window and the v1 sunset (start from: contract-gate diff a b --migration-skeleton c)');
  });

  it('refuses a document larger than the registry keeps (1 MiB), as publish would, before reading it', () => {
    const text = `${V2_DOCUMENT}\n${'x'.repeat(1024 * 1024)}\n`;
    expect(migrationRefusal(input(), { path: 'm/orders_v1_to_v2.md', text }, '')).toBe(`the migration document m/orders_v1_to_v2.md of orders v2 is ${new TextEncoder().encode(text).length} bytes, more than 1048576 (1 MiB), the most the registry keeps: move long material elsewhere and link it`);
  });

  it('says what an incomplete one lacks, and nothing of a complete one', () => {
    const path = 'contracts/migrations/orders_v1_to_v2.md';
    expect(migrationRefusal(input(), { path, text: '# nothing\n' }, '')).toMatch(/^the migration document contracts\/migrations\/orders_v1_to_v2\.md of orders v2 is incomplete: no "## What changed and why" section/);
    expect(migrationRefusal(input(), { path, text: V2_DOCUMENT }, '')).toBeUndefined();
  });
});
