/**
 * The keys ODCS v3.1.0 defines at each level we read. A key outside these lists is not ODCS: it is
 * warned about (with a suggestion) rather than refused, since the document is someone else's, but
 * never dropped silently — a misspelt `primaryKye` would otherwise switch a rule off unnoticed.
 */
const ELEMENT = ['id', 'name', 'physicalType', 'description', 'businessName', 'authoritativeDefinitions', 'tags', 'customProperties'] as const;

export const TOP_KEYS = [
  'version', 'kind', 'apiVersion', 'id', 'name', 'tenant', 'tags', 'status', 'servers', 'dataProduct', 'description', 'domain',
  'schema', 'support', 'price', 'team', 'roles', 'slaDefaultElement', 'slaProperties', 'authoritativeDefinitions', 'customProperties',
  'contractCreatedTs',
] as const;

export const OBJECT_KEYS = [...ELEMENT, 'logicalType', 'physicalName', 'dataGranularityDescription', 'properties', 'relationships', 'quality'] as const;

export const PROPERTY_KEYS = [
  ...ELEMENT, 'primaryKey', 'primaryKeyPosition', 'logicalType', 'logicalTypeOptions', 'physicalName', 'required', 'unique',
  'partitioned', 'partitionKeyPosition', 'classification', 'encryptedName', 'transformSourceObjects', 'transformLogic',
  'transformDescription', 'examples', 'criticalDataElement', 'relationships', 'quality', 'items', 'properties',
] as const;

export const OPERATORS = [
  'mustBe', 'mustNotBe', 'mustBeGreaterThan', 'mustBeGreaterOrEqualTo', 'mustBeLessThan', 'mustBeLessOrEqualTo', 'mustBeBetween', 'mustNotBeBetween',
] as const;

export const QUALITY_KEYS = [
  'id', 'authoritativeDefinitions', 'businessImpact', 'customProperties', 'description', 'dimension', 'method', 'name', 'schedule',
  'scheduler', 'severity', 'tags', 'type', 'unit', 'metric', 'rule', 'arguments', 'query', 'engine', 'implementation', ...OPERATORS,
] as const;

export const SLA_PROPERTY_KEYS = ['id', 'property', 'value', 'valueExt', 'unit', 'element', 'driver', 'description', 'scheduler', 'schedule'] as const;

export const TEAM_KEYS = ['id', 'name', 'description', 'members', 'tags', 'customProperties', 'authoritativeDefinitions'] as const;

export const MEMBER_KEYS = [
  'id', 'username', 'name', 'description', 'role', 'dateIn', 'dateOut', 'replacedByUsername', 'tags', 'customProperties', 'authoritativeDefinitions',
] as const;

/** The options ODCS allows per logical type; anything else in `logicalTypeOptions` is not ODCS. */
export const TYPE_OPTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  date: ['format', 'exclusiveMaximum', 'maximum', 'exclusiveMinimum', 'minimum'],
  timestamp: ['format', 'exclusiveMaximum', 'maximum', 'exclusiveMinimum', 'minimum', 'timezone', 'defaultTimezone'],
  time: ['format', 'exclusiveMaximum', 'maximum', 'exclusiveMinimum', 'minimum', 'timezone', 'defaultTimezone'],
  integer: ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'format'],
  number: ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'format'],
  object: ['maxProperties', 'minProperties', 'required'],
  array: ['maxItems', 'minItems', 'uniqueItems'],
};
