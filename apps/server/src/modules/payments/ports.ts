// What other modules may use of the payments module (eslint.config.js lets them import only this file).
export type { PaymentOutcome, PaymentOutcomes, PaymentProvider, PaymentReport, ReceivedAmount } from './provider.ts';
