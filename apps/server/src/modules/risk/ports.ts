// What other modules may use of the risk module (eslint.config.js lets them import only this file).
export type { AssessmentRow, CardScreening, CheckoutFacts, Judgement, OrderFacts, RiskService } from './service.ts';
export type { RiskIdentities } from './identities.ts';
export { toAssessment, toOrderRisk } from './service.ts';
