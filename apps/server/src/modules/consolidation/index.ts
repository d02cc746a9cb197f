export { buildConsolidationInput, type BuildRequest, type BuildResult, type PeriodRequest } from "./input.ts";
export { translateSubsidiary, type SubsidiaryTranslation, type SubsidiaryTranslationView, type TranslatedTbLine } from "./translate.ts";
