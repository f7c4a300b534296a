import { simpleParser } from 'mailparser';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { SMTPServer } from 'smtp-server';

/** One mail the local SMTP server received, as the back office lists it. */
export interface StoredMail {
  id: string;
  messageId?: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  receivedAt: string;
}

const ID_PATTERN = /^[0-9]{13}-[a-f0-9]{8}$/;

/**
 * A real SMTP server on a loopback port for development and tests (no SMTP_HOST): every message it
 * receives is kept under `<dir>` as the raw `.eml` and a parsed `.json`, so `npm start` shows every
 * message the shop sends, offline.
 */
export class LocalMailServer {
  private server?: SMTPServer;
  port = 0;

  constructor(readonly dir: string) {}

  async start(): Promise<number> {
    await fs.mkdir(this.dir, { recursive: true });
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      banner: 'local mail catcher',
      size: 5 * 1024 * 1024,
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          this.store(raw, session.envelope.rcptTo.map((r) => r.address).join(', ')).then(
            () => callback(),
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this.port;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  private async store(raw: Buffer, envelopeTo: string): Promise<void> {
    const parsed = await simpleParser(raw);
    const id = `${Date.now()}-${randomBytes(4).toString('hex')}`;
    const mail: StoredMail = {
      id,
      messageId: parsed.messageId,
      from: parsed.from?.text ?? '',
      to: envelopeTo,
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : undefined,
      receivedAt: new Date().toISOString(),
    };
    await fs.writeFile(path.join(this.dir, `${id}.eml`), raw);
    // Written under a temporary name and renamed, so a reader listing the folder never sees a
    // half-written mail (a rename within one folder is atomic).
    const part = path.join(this.dir, `${id}.json.part`);
    await fs.writeFile(part, JSON.stringify(mail));
    await fs.rename(part, path.join(this.dir, `${id}.json`));
  }

  /** The stored mails, newest first. */
  async list(): Promise<StoredMail[]> {
    return listStoredMails(this.dir);
  }
}

export async function listStoredMails(dir: string): Promise<StoredMail[]> {
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
  const mails: StoredMail[] = [];
  for (const id of ids) {
    try {
      mails.push(JSON.parse(await fs.readFile(path.join(dir, `${id}.json`), 'utf8')) as StoredMail);
    } catch {
      // a mail still being written is listed next time
    }
  }
  return mails;
}

export function isStoredMailId(id: string): boolean {
  return ID_PATTERN.test(id);
}
