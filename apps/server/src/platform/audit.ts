// The audit log of the back office (issue 15): every admin action, who made it, when, on what, the
// values before and after where they apply, and why. Append-only: a trigger (migration 0011) refuses
// any update or delete, the app's included. A record is written in the caller's transaction when the
// action has one, so the action and its record commit together or not at all.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AuditAction, AuditEntry, AuditList } from '@keystore/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Db } from '../db/client.ts';
import { auditLog } from './schema.ts';

/** The admin who acts: the e-mail is kept with the id, so the record outlives the account. */
export interface AuditActor {
  id: string;
  email: string;
}

export interface AuditTarget {
  type: 'order' | 'user' | 'game' | 'settings' | 'catalog' | 'support' | 'news' | 'notification' | 'seller' | 'payout' | 'payouts' | 'claim' | 'risk';
  id: string;
}

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget;
  before?: unknown;
  after?: unknown;
  reason?: string | null | undefined;
}

export type AuditRow = typeof auditLog.$inferSelect;

/** Writes one record, through `db` (the caller's transaction where there is one). */
export async function recordAudit(db: Db, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    actorId: record.actor.id,
    actorEmail: record.actor.email,
    action: record.action,
    targetType: record.target.type,
    targetId: record.target.id,
    before: record.before ?? null,
    after: record.after ?? null,
    reason: record.reason ?? null,
  });
}

/** One page of the log, newest first. */
export async function auditPage(db: Db, page: number, pageSize: number): Promise<AuditList> {
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .orderBy(desc(auditLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(auditLog),
  ]);
  return { items: rows.map(toAuditEntry), total: count?.total ?? 0, page, pageSize };
}

/** The records of one target's given actions, oldest first (an order's resends and retries for its timeline). */
export function auditOfTarget(db: Db, target: AuditTarget, actions: readonly AuditAction[]): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, target.type), eq(auditLog.targetId, target.id), inArray(auditLog.action, [...actions])))
    .orderBy(auditLog.id);
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorId, email: row.actorEmail },
    action: row.action as AuditAction,
    target: { type: row.targetType, id: row.targetId },
    before: row.before ?? null,
    after: row.after ?? null,
    reason: row.reason,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Records an action of the admin making `request` (after `app.requireAdmin`) in the audit log:
     * for the admin routes of any module that has no transaction to write it in (news, notifications).
     */
    audit(request: FastifyRequest, record: Omit<AuditRecord, 'actor'>): Promise<void>;
  }
}

/** Decorates the app with `audit`; `actorOf` tells who the admin of a request is (id and e-mail). */
export function registerAuditing(app: FastifyInstance, database: Database, actorOf: (request: FastifyRequest) => Promise<AuditActor>): void {
  app.decorate('audit', async (request: FastifyRequest, record: Omit<AuditRecord, 'actor'>) => {
    await recordAudit(database.db, { ...record, actor: await actorOf(request) });
  });
}
