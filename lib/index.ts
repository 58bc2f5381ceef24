/**
 * `contract-gate`: the engine as a library. Load and lint a contract, build its check plan,
 * validate a partition from local paths or an object store, diff two contracts, and read the
 * report. The constructs are `contract-gate/cdk`, the Lambda handlers `contract-gate/lambda`.
 * Nothing here loads aws-cdk-lib.
 */

// Contracts: parse (lint) and load.
export { parseContract, type ContractDefaults, type LoadOptions, type LoadResult } from './contract/load-contract.js';
export { loadContractFile, requireContract } from './cli/contract-file.js';
export { loadContractDirectory } from './storage/contract-directory.js';
export type { ContractRegistry, ContractSource } from './gate/contract-registry.js';
export { formatProblem, type ContractProblem, type ProblemCode } from './contract/problems.js';
export type { ColumnSpec, Consumer, Contract, ContractOrigin, ContractSchema, DataFormat, ExpectedCell, ReferenceCell, ReferenceRow, SemVer, Sla, SlaSchedule } from './contract/model.js';

// The contract registry on the gate's bucket.
export { registerContract, type ContractFileToRegister, type RegisterOptions, type RegisterOutcome } from './registry/register-contract.js';
export { registryContracts, type RegistrySourceOptions } from './registry/registry-contracts.js';
export { readRegistry } from './registry/read-registry.js';
export type { RegisteredContract } from './registry/registry-objects.js';
// A new major's migration document: where publish finds it, and reading it back from the registry.
export type { MigrationSource } from './registry/register-migration.js';
export { readRegisteredMigration } from './registry/registry-objects.js';

// Checking a partition.
export { buildCheckPlan, type CheckPlan, type ColumnPlan } from './checks/check-plan.js';
export { runChecks, validatePartition, type CheckRun, type OpenedFile, type PartitionFile, type Progress, type RunStats, type ValidateOptions } from './checks/validate-partition.js';
export { runChecksInParallel, PARALLEL_MIN_VALUES, type ParallelOptions } from './parallel/parallel-checks.js';
export { validateLocalPartition, validateStoredPartition, type ValidateFilesOptions } from './api/validate-files.js';
export { localPartitionFile, localPartitionFiles } from './storage/local-files.js';
export { objectFile } from './storage/object-file.js';

// The report.
export { MAX_SAMPLES, RULE_ORDER, type FileSummary, type ObservedRange, type Report, type RuleId, type Sample, type SampleValue, type Violation } from './report/report.js';
export { formatTextReport } from './report/text-report.js';
export { formatJunitReport } from './report/junit-report.js';
export { htmlReport, type ReportPageInput } from './report/html-report.js';

// The lake's status page, as `serve` shows it and `status` writes it.
export { readLakeStatus, type LakeStatusOptions } from './status/read-lake-status.js';
export { statusPage, type StatusPageOptions } from './status/status-page.js';
export { baseLinks, consoleLinks, endpointLinks, fileLinks, gateLinks, type LinkStyle } from './status/status-links.js';
export type { CellState, DatasetStatus, LakeStatus, NoticeEntry, PartitionCell } from './status/lake-status.js';

// Contract changes.
export { diffContracts } from './compat/diff-contracts.js';
export { formatDiffText, formatVerdict } from './compat/format-diff.js';
export type { Bump, Change, ChangeClass, ChangeId, CompatMode, ContractDiff, DeclaredBump } from './compat/contract-diff.js';

// Storage: the object-store port and its adapters.
export { readVersion, readWhole, uploadChunks, type CopyOptions, type ObjectInfo, type ObjectStore, type ReadOptions, type WriteOptions } from './storage/object-store.js';
export { s3ObjectStore, type S3ObjectStoreOptions } from './storage/s3-object-store.js';
export { createS3Client, type S3ClientOptions } from './storage/s3-client.js';
export { localObjectStore } from './storage/local-object-store.js';

export { GateError, describeError, type GateErrorCode } from './errors.js';
