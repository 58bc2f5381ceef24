import { MAX_REFERENCE_KEYS } from '../checks/plan-facts.js';
import { formatColumnType, type ColumnType } from './column-type.js';
import { didYouMean } from './did-you-mean.js';
import type { ColumnReference, ColumnSpec, Contract } from './model.js';
import type { ContractProblem, ProblemCode } from './problems.js';
import type { Locate } from './yaml-locate.js';

/** A contract that loaded, and the file it came from. */
export interface LoadedContract {
  readonly contract: Contract;
  readonly file: string;
}

export interface ReferenceScope {
  /** Every contract lint could read: the files linted and those found beside the referencing one. */
  readonly candidates: readonly LoadedContract[];
  /** Where a referenced contract was looked for, for the warning when it is not there. */
  readonly searched: (reference: ColumnReference) => string;
}

/**
 * Checks each `references` of a contract against the contract it names, when lint has it: the
 * column exists, holds the same kind of values, and the referenced dataset is bounded to the keys
 * a check may hold in memory. Without it, the gate finds out at run time, so that is a warning.
 */
export function checkReferences(referring: LoadedContract, scope: ReferenceScope, locate: Locate): ContractProblem[] {
  const problems: ContractProblem[] = [];
  referring.contract.schema.columns.forEach((column, i) => {
    if (!column.references) return;
    const path = `schema.columns[${i}].references`;
    const report = (code: ProblemCode, key: 'contract' | 'column', message: string, severity: 'error' | 'warning' = 'error') => {
      problems.push({ code, severity, message, file: referring.file, path: `${path}.${key}`, ...locate(`${path}.${key}`) });
    };
    checkOne(referring.contract.name, column, column.references, scope, report);
  });
  return problems;
}

type Report = (code: ProblemCode, key: 'contract' | 'column', message: string, severity?: 'error' | 'warning') => void;

function checkOne(name: string, column: ColumnSpec, reference: ColumnReference, scope: ReferenceScope, report: Report): void {
  const target = findReferenced(reference, scope.candidates);
  if (!target) {
    const which = reference.major === undefined ? `no active version of contract "${reference.contract}"` : `no contract "${reference.contract}" of major version ${reference.major}`;
    report('reference_not_found', 'contract', `lint found ${which} (it looked ${scope.searched(reference)}), so the referenced column, its type and its size are checked at run time only; lint the two contracts together to check them now`, 'warning');
    return;
  }
  const { contract, file } = target;
  const label = `${contract.name} ${contract.version.text} (${file})`;
  const referenced = contract.schema.columns.find((c) => c.name === reference.column);
  if (!referenced) {
    const names = contract.schema.columns.map((c) => c.name);
    const hint = didYouMean(reference.column, names);
    report('reference_unknown_column', 'column', `"${reference.column}" is not a column of ${label}; ${hint ? `did you mean "${hint}"?` : `its columns: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`}`);
  } else if (keyKind(column.type) !== keyKind(referenced.type)) {
    report('reference_type_mismatch', 'column', `${name}.${column.name} is ${formatColumnType(column.type)} but ${contract.name}.${referenced.name} is ${formatColumnType(referenced.type)}: a value matches a key only of the same kind (strings with strings, integers with integers, decimals of the same scale); declare both columns with the same kind of type`);
  }
  checkSize(contract, label, report);
}

/** The referenced keys are loaded into one set in memory: the referenced dataset must be bounded. */
function checkSize(contract: Contract, label: string, report: Report): void {
  const maxRows = contract.sla?.maxRows;
  const bound = MAX_REFERENCE_KEYS.toLocaleString('en-US');
  if (maxRows === undefined) {
    report('reference_unbounded', 'contract', `${label} sets no sla.max_rows, so whether its keys fit the ${bound} a reference may hold in memory cannot be checked before run time; set sla.max_rows on ${contract.name}`, 'warning');
  } else if (maxRows > MAX_REFERENCE_KEYS) {
    report('reference_too_large', 'contract', `${label} allows up to ${maxRows.toLocaleString('en-US')} rows (sla.max_rows), more than the ${bound} keys a reference may load: the keys are held in memory while a batch is checked; reference a smaller dimension, or set sla.max_rows of ${contract.name} to at most ${bound}`);
  }
}

/** The named major, or else the highest active one, as the gate's registry picks it. */
export function findReferenced(reference: ColumnReference, candidates: readonly LoadedContract[]): LoadedContract | undefined {
  const named = candidates.filter(({ contract }) => contract.name === reference.contract);
  if (reference.major !== undefined) return named.find(({ contract }) => contract.version.major === reference.major);
  const active = named.filter(({ contract }) => contract.status === 'active');
  return active.reduce<LoadedContract | undefined>((best, c) => (!best || c.contract.version.major > best.contract.version.major ? c : best), undefined);
}

/** Keys are compared by their spelling (referenceKey): int32 and int64 spell alike, an integer and a string do not. */
function keyKind(type: ColumnType): string {
  switch (type.kind) {
    case 'int32':
    case 'int64':
      return 'integer';
    case 'float32':
    case 'float64':
      return 'float';
    case 'decimal':
      return `decimal/${type.scale}`;
    default:
      return type.kind;
  }
}
