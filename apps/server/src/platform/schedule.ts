// A job on a schedule (croner syntax, seconds first), written once for every module: one run at a time
// per instance (a run still going when the next is due is skipped), its failure logged and tried again
// next time (a database outage), and a stop that waits for the run under way, so the database closes
// after it. Whether one instance of the cluster runs it or all do is the job's own business (an
// advisory lock, or rows taken with skip locked).
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';

export class Schedule {
  private cron: Cron | undefined;
  private running: Promise<unknown> | undefined;
  private readonly pattern: string;
  private readonly name: string;
  private readonly work: () => Promise<unknown>;
  private readonly log: FastifyBaseLogger | undefined;

  /** `name` says what failed in the log: "claims run", "mail retry run". */
  constructor(pattern: string, name: string, work: () => Promise<unknown>, log?: FastifyBaseLogger) {
    this.pattern = pattern;
    this.name = name;
    this.work = work;
    this.log = log;
  }

  start(): void {
    this.cron = new Cron(this.pattern, { protect: true, unref: true }, async () => {
      await this.runNow();
    });
  }

  /** Runs the job once now (as the schedule does), its failure logged. */
  runNow(): Promise<unknown> {
    this.running = this.work().catch((error: unknown) => this.log?.error({ err: error }, `${this.name} failed; the next run retries`));
    return this.running;
  }

  async stop(): Promise<void> {
    this.cron?.stop();
    await this.running;
  }
}
