import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { SmsGateway } from './transport';

/** One SMS kept by the local store, as the back office lists it. */
export interface StoredSms {
  id: string;
  to: string;
  text: string;
  sentAt: string;
}

const ID_PATTERN = /^[0-9]{13}-[a-f0-9]{8}$/;

/**
 * The SMS gateway of development and tests when no AFROMESSAGE_TOKEN is set (never in production):
 * every SMS is kept under `<dir>` (DATA_DIR/sms) as one JSON file, written under a temporary name
 * and renamed so that a reader never sees half of one, and listed at GET /api/admin/sms, as local
 * mail is (docs/decisions/0065-local-sms-store.md).
 */
export class LocalSmsStore implements SmsGateway {
  readonly name = 'local';

  constructor(readonly dir: string) {}

  async send(to: string, text: string): Promise<{ id: string }> {
    await fs.mkdir(this.dir, { recursive: true });
    const id = `${Date.now()}-${randomBytes(4).toString('hex')}`;
    const sms: StoredSms = { id, to, text, sentAt: new Date().toISOString() };
    const part = path.join(this.dir, `${id}.json.part`);
    await fs.writeFile(part, JSON.stringify(sms));
    await fs.rename(part, path.join(this.dir, `${id}.json`));
    return { id };
  }
}

/** The stored SMS, newest first. */
export async function listStoredSms(dir: string): Promise<StoredSms[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const ids = names
    .filter((n) => n.endsWith('.json') && ID_PATTERN.test(n.slice(0, -5)))
    .map((n) => n.slice(0, -5))
    .sort()
    .reverse();
  const all: StoredSms[] = [];
  for (const id of ids) {
    try {
      all.push(JSON.parse(await fs.readFile(path.join(dir, `${id}.json`), 'utf8')) as StoredSms);
    } catch {
      // removed meanwhile: not listed
    }
  }
  return all;
}

/** One stored SMS by id, or undefined (an id of another form is never a path). */
export async function readStoredSms(dir: string, id: string): Promise<StoredSms | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  try {
    return JSON.parse(await fs.readFile(path.join(dir, `${id}.json`), 'utf8')) as StoredSms;
  } catch {
    return undefined;
  }
}
