// What other modules may use of the risk module (eslint.config.js lets them import only this file).
export type { AssessmentRow, OrderFacts, RiskService } from './service.ts';
export type { RiskIdentities } from './identities.ts';
export { toAssessment } from './service.ts';
