export * from "./input-schema.ts";
export * from "./output-schema.ts";
export * from "./pair-match.ts";
export { ConsolidationInputError, formatIssue, formatPath, type InputIssue } from "./errors.ts";
export { consolidate, parseConsolidationInput, NCI_SHARE_OF_PROFIT_ROW } from "./consolidate.ts";
export { mappingProblem } from "./mapping.ts";
export { worksheetCsv, type WorksheetCsvOptions } from "./csv.ts";
export { contractJsonSchemas } from "./json-schema.ts";
export type { BalanceColumns } from "./balance-columns.ts";
