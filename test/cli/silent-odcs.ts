/** An ODCS contract that says neither whom to page (no e-mail username) nor the file format. */
export const SILENT_ODCS = [
  'apiVersion: v3.1.0', 'kind: DataContract', 'id: orders-v1', 'name: orders', 'version: 1.0.0', 'status: active',
  'team:', '  name: orders-platform', '  members:', '    - username: oncall',
  'servers:', '  - server: prod', '    type: s3', '    location: s3://lake/orders/dt={ds}/',
  'schema:', '  - name: orders', '    properties:', '      - name: order_id', '        logicalType: string', '',
].join('\n');
