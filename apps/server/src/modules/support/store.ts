// The support_messages table: every message sent through the form, kept whether or not its e-mail goes out.
import type { Database } from '../../db/client.ts';
import { supportMessages } from '../../db/schema.ts';
import { newId } from '../../platform/ids.ts';

export interface NewSupportMessage {
  email: string;
  name: string;
  title: string;
  message: string;
  userId: string | undefined;
  ip: string;
}

/** Stores a form message and answers its id. */
export async function insertSupportMessage(database: Database, message: NewSupportMessage): Promise<string> {
  const id = newId(16);
  await database.db.insert(supportMessages).values({ id, ...message, userId: message.userId ?? null });
  return id;
}
