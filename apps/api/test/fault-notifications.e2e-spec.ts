import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort, spawnTs, stopProcess, type TsProcess } from './fault-support';

/** The mails the local SMTP server kept under DATA_DIR/mail. */
function keptMails(dataDir: string): { to: string; subject: string; text: string }[] {
  try {
    return readdirSync(path.join(dataDir, 'mail'))
      .filter((n) => n.endsWith('.json'))
      .map((n) => JSON.parse(readFileSync(path.join(dataDir, 'mail', n), 'utf8')));
  } catch {
    return [];
  }
}

describe('fault: the API dies between a change and the delivery of its message', () => {
  let api: TsProcess | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fault-outbox-'));

  afterAll(async () => {
    await stopProcess(api);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (port: number, workerIntervalMs: string) => {
    const p = spawnTs('apps/api/src/main.ts', [], {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      MONGODB_URI: '',
      EMBEDDED_IN_MEMORY: 'false',
      MONGOMS_ENABLED: 'false',
      DATA_DIR: dataDir,
      SEED_ON_EMPTY: 'false',
      NOTIFICATIONS_INTERVAL_MS: workerIntervalMs,
    });
    await p.waitFor(/API listening/, 60_000);
    return p;
  };

  it('finds the message in the outbox after a SIGKILL and delivers it exactly once after restart', async () => {
    const port = await freePort();
    // first life: the worker is off, so the message can only be in the outbox when the process dies
    api = await start(port, '0');
    const res = await fetch(`http://127.0.0.1:${port}/api/contacts/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Selam Tadesse',
        email: 'selam@example.et',
        subject: 'Bulk order',
        message: 'Please call me about a bulk order of shea butter.',
      }),
    });
    expect(res.status).toBe(201);
    api.child.kill('SIGKILL');
    await api.exited;
    expect(keptMails(dataDir)).toEqual([]);

    // second life: the worker finds the committed message and delivers it
    api = await start(port, '100');
    let found: { to: string; subject: string; text: string }[] = [];
    for (let i = 0; i < 300 && !found.length; i++) {
      found = keptMails(dataDir).filter((m) => m.subject === 'New message from Selam Tadesse: Bulk order');
      if (!found.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found).toHaveLength(1);
    expect(found[0].to).toBe('admin@beauty.et');
    expect(found[0].text).toContain('Please call me about a bulk order of shea butter.');
    await new Promise((r) => setTimeout(r, 1000)); // later runs of the worker send nothing again
    expect(keptMails(dataDir).filter((m) => m.subject.includes('Selam'))).toHaveLength(1);
  });
});
