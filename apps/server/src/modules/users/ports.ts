// What other modules may use of the users module (eslint.config.js lets them import only this file).
export type { Accounts } from './accounts.ts';
export type { PurchaseStats, PurchaseSummary, UserRow, UsersService } from './service.ts';
// The read model other modules may join (decision 033): an account's e-mail, name, role and block.
export { userFacts } from './schema.ts';
