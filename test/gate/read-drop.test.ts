import { describe, expect, it } from 'vitest';
import { dropTag } from '../../lib/gate/read-drop.js';

describe('dropTag', () => {
  it('names a drop exactly as earlier releases did, so a deploy never re-decides a drop already decided', () => {
    const marker = { key: 'staging/orders/v1/dt=2026-11-29/_READY', size: 0, etag: '"9b2cf535f27731c974343645a3985328"', lastModified: new Date('2026-11-29T23:59:58.000Z'), versionId: '3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY' };
    // The tag 0.1.0 wrote for this marker: decision records under _gate/ are named by it.
    expect(dropTag(marker)).toBe('087fb0b2ac7bb8');
    expect(dropTag({ ...marker, lastModified: new Date('2026-11-29T23:59:59.000Z') })).not.toBe('087fb0b2ac7bb8');
  });
});
