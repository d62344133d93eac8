// The live side of notifications: every instance LISTENs on one PostgreSQL channel and forwards each
// announced notification to the server-sent-event streams connected to it (public ones to every
// stream, personal ones to their owner's). Publishing only NOTIFYs (store.ts, insertAndNotify), so the
// instance that created a notification and every other instance sharing the database deliver it the same way.
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { NOTIFICATION_HEARTBEAT_SECONDS, type Notification } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { notificationsCreatedSince } from './store.ts';
import { toNotification } from './view.ts';

export const NOTIFICATIONS_CHANNEL = 'notifications_created';
/** Names a user whose sessions an admin ended (a block): every instance ends that user's streams at once. */
export const SESSIONS_ENDED_CHANNEL = 'sessions_ended';
/**
 * Open streams one instance keeps at most, in all and per caller: each holds a socket, and visitors
 * need no account to open one, so one address alone must not take every slot. Counted per instance,
 * like the sockets they protect. An address is shared by a household or an office, hence its larger cap.
 */
export const STREAM_LIMITS = { perInstance: 10_000, perUser: 5, perAddress: 20 };
export type StreamLimits = typeof STREAM_LIMITS;
/**
 * A notification's row is stamped when its transaction writes it and announced when it commits:
 * a replay after a lost connection looks this much further back, and skips what was already sent.
 */
const REPLAY_OVERLAP_MS = 10_000;
const REPLAY_LIMIT = 1000;
/** Ids of the announcements delivered lately, so a replay does not send one twice. */
const RECENT_IDS_KEPT = 2000;

/** What travels on the channel: the notification as its readers see it, and whose it is (null: everyone's). */
export interface Announcement {
  userId: string | null;
  notification: Notification;
}

interface Subscriber {
  /** null for a visitor: public notifications only. */
  userId: string | null;
  /** The client address the stream came from. */
  address: string;
  response: ServerResponse;
  /** Whether the user's session is still open; asked before a personal notification goes out. */
  sessionOpen?: (() => Promise<boolean>) | undefined;
  /**
   * The frames under way to this stream, one after another: a personal notification waits for its
   * session check, and a public one announced right after it must not overtake it.
   */
  sending: Promise<void>;
}

export class NotificationStreams {
  private readonly subscribers = new Set<Subscriber>();
  private stopListening: (() => Promise<void>) | undefined;
  private stopListeningForEnds: (() => Promise<void>) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly database: Database;
  private readonly log: FastifyBaseLogger;
  private readonly limits: StreamLimits;
  /** Open streams per signed-in user and per client address. */
  private readonly perUser = new Map<string, number>();
  private readonly perAddress = new Map<string, number>();
  private readonly recent = new Set<string>();

  constructor(database: Database, log: FastifyBaseLogger, limits: Partial<StreamLimits> = {}) {
    this.database = database;
    this.log = log;
    this.limits = { ...STREAM_LIMITS, ...limits };
  }

  /** Starts listening on the channel and the heartbeat (app onReady). */
  async start(): Promise<void> {
    this.stopListening = await this.database.listen(NOTIFICATIONS_CHANNEL, (payload) => this.deliver(payload), {
      onReconnect: (lostAt) => {
        this.replaySince(lostAt).catch((error: unknown) => this.log.error({ err: error }, 'could not replay the notifications missed during a lost connection'));
      },
    });
    // A comment line now and then: proxies and browsers drop a stream that stays silent too long.
    this.stopListeningForEnds = await this.database.listen(SESSIONS_ENDED_CHANNEL, (userId) => this.endClosedStreamsOf(userId));
    this.heartbeat = setInterval(() => this.broadcast(':heartbeat\n\n'), NOTIFICATION_HEARTBEAT_SECONDS * 1000);
    this.heartbeat.unref();
  }

  /** Ends every stream and stops listening (app close: an open stream would keep the server from closing). */
  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const subscriber of this.subscribers) subscriber.response.end();
    this.subscribers.clear();
    this.perUser.clear();
    this.perAddress.clear();
    await this.stopListening?.();
    await this.stopListeningForEnds?.();
    this.stopListening = undefined;
    this.stopListeningForEnds = undefined;
  }

  /** Ends the user's streams whose session is over (told on SESSIONS_ENDED_CHANNEL by any instance). */
  private endClosedStreamsOf(userId: string): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.userId !== userId || !subscriber.sessionOpen) continue;
      const { sessionOpen, response } = subscriber;
      subscriber.sending = subscriber.sending
        .then(async () => {
          if (!response.writableEnded && !(await sessionOpen())) response.end();
        })
        .catch((error: unknown) => this.log.error({ err: error }, 'could not end a notification stream'));
    }
  }

  /** Keeps `response` (headers already sent) until the client goes away; it counts against its user and address until then. */
  subscribe(userId: string | null, address: string, response: ServerResponse, sessionOpen?: () => Promise<boolean>): void {
    const subscriber: Subscriber = { userId, address, response, sessionOpen, sending: Promise.resolve() };
    this.subscribers.add(subscriber);
    if (userId !== null) count(this.perUser, userId, 1);
    count(this.perAddress, address, 1);
    response.on('close', () => {
      // Stopping already forgot every stream; a close after it must not count one twice.
      if (!this.subscribers.delete(subscriber)) return;
      if (userId !== null) count(this.perUser, userId, -1);
      count(this.perAddress, address, -1);
    });
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Whether this instance takes no more streams (the route answers 503; EventSource retries by itself). */
  get full(): boolean {
    return this.subscribers.size >= this.limits.perInstance;
  }

  /** Whether this user (null: a visitor) or this address already holds as many streams as it may (the route answers 429). */
  tooManyFrom(userId: string | null, address: string): boolean {
    if (userId !== null && (this.perUser.get(userId) ?? 0) >= this.limits.perUser) return true;
    return (this.perAddress.get(address) ?? 0) >= this.limits.perAddress;
  }

  /** Sends the notifications created while the channel was not heard (a database outage), oldest first. */
  private async replaySince(lostAt: Date): Promise<void> {
    const missed = await notificationsCreatedSince(this.database.db, new Date(lostAt.getTime() - REPLAY_OVERLAP_MS), REPLAY_LIMIT);
    const replayed = missed.filter((row) => !this.recent.has(row.id));
    for (const row of replayed) this.announce({ userId: row.userId, notification: toNotification(row, false) });
    if (replayed.length > 0) this.log.info({ replayed: replayed.length }, 'notifications missed during a lost database connection sent');
  }

  private deliver(payload: string): void {
    let announcement: Announcement;
    try {
      announcement = JSON.parse(payload) as Announcement;
    } catch (error) {
      this.log.error({ err: error }, 'unreadable notification announcement');
      return;
    }
    this.announce(announcement);
  }

  private announce(announcement: Announcement): void {
    const id = announcement.notification._id;
    if (this.recent.has(id)) return;
    this.recent.add(id);
    if (this.recent.size > RECENT_IDS_KEPT) this.recent.delete(this.recent.values().next().value!);
    const frame = `event: notification\nid: ${announcement.notification._id}\ndata: ${JSON.stringify(announcement.notification)}\n\n`;
    const { userId } = announcement;
    if (userId === null) return this.broadcast(frame);
    // A personal notification goes only to streams whose session is still open: a stream outlives
    // a logout or a password change until its browser closes it, and must not leak past them.
    for (const subscriber of this.subscribers) {
      if (subscriber.userId === userId) this.send(subscriber, frame, true);
    }
  }

  /** Queues a frame on the stream, in announcement order; `checkSession`: end the stream instead if its session is over. */
  private send(subscriber: Subscriber, frame: string, checkSession = false): void {
    subscriber.sending = subscriber.sending
      .then(async () => {
        if (subscriber.response.writableEnded) return;
        if (checkSession && subscriber.sessionOpen && !(await subscriber.sessionOpen())) {
          subscriber.response.end();
          return;
        }
        subscriber.response.write(frame);
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'could not send to a notification stream'));
  }

  private broadcast(frame: string): void {
    for (const subscriber of this.subscribers) this.send(subscriber, frame);
  }
}

/** Adds `by` to `key`'s count, forgetting keys that drop to zero so the map holds only open callers. */
function count(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
