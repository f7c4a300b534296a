import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { listStoredSms, LocalSmsStore, readStoredSms } from './local-sms-store';

describe('LocalSmsStore (docs/decisions/0065-local-sms-store.md)', () => {
  let dir: string;

  beforeEach(() => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), 'sms-store-')), 'sms');
  });

  afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('keeps each SMS as one JSON file, made when first needed, and lists them newest first', async () => {
    const store = new LocalSmsStore(dir);
    expect(await listStoredSms(dir)).toEqual([]);
    const first = await store.send('+251911000001', 'first');
    await new Promise((r) => setTimeout(r, 5));
    const second = await store.send('+251911000002', 'second');
    expect(readdirSync(dir).sort()).toEqual([`${first.id}.json`, `${second.id}.json`]);
    const listed = await listStoredSms(dir);
    expect(listed.map((s) => [s.id, s.to, s.text])).toEqual([
      [second.id, '+251911000002', 'second'],
      [first.id, '+251911000001', 'first'],
    ]);
    expect(Number.isNaN(Date.parse(listed[0].sentAt))).toBe(false);
    expect(await readStoredSms(dir, first.id)).toEqual(listed[1]);
  });

  it('never lists a file being written (temporary name) nor reads an id that is not one of its own', async () => {
    const store = new LocalSmsStore(dir);
    const { id } = await store.send('+251911000003', 'whole');
    writeFileSync(path.join(dir, '1767225600000-0a1b2c3d.json.part'), '{"half');
    writeFileSync(path.join(dir, 'notes.json'), '{}');
    expect((await listStoredSms(dir)).map((s) => s.id)).toEqual([id]);
    expect(await readStoredSms(dir, '1767225600000-0a1b2c3d')).toBeUndefined();
    expect(await readStoredSms(dir, '../sms/notes')).toBeUndefined();
    expect(await readStoredSms(dir, 'notes')).toBeUndefined();
  });
});
