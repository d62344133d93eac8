// Fault injection for the crash test (orders/crash.pg.test.ts), loaded into the server with
// `node --import` and never by the store itself: kills the process (SIGKILL) right after a payment
// is committed and before its keys are asked for, where the orders module announces the payment on
// the `keystore:order-paid` diagnostics channel. The start-up sweep must then deliver the order.
import diagnosticsChannel from 'node:diagnostics_channel';

diagnosticsChannel.subscribe('keystore:order-paid', (message) => {
  process.stderr.write(`crash-after-payment: killing the process after the payment of ${JSON.stringify(message)}\n`);
  process.kill(process.pid, 'SIGKILL');
});
