import { describe, expect, it } from 'vitest';
import { userLines } from './userLines';

describe('users list identity', () => {
  it('shows the name, then the email and phone', () => {
    expect(userLines({ name: 'Almaz', email: 'almaz@example.et', phone: '+251911234567' })).toEqual({
      title: 'Almaz',
      lines: [
        { key: 'email', text: 'almaz@example.et' },
        { key: 'phone', text: '+251911234567' },
      ],
    });
  });

  it('shows a phone-only account by its phone and says it has no email, without crashing on missing fields', () => {
    expect(userLines({ name: '', phone: '+251911234567' })).toEqual({
      title: '+251911234567',
      lines: [{ key: 'noEmail' }],
    });
    expect(userLines({ name: 'Abebe', email: null, phone: '+251911234567' })).toEqual({
      title: 'Abebe',
      lines: [{ key: 'phone', text: '+251911234567' }, { key: 'noEmail' }],
    });
    expect(userLines({})).toEqual({ title: '', lines: [{ key: 'noEmail' }] });
  });

  it('does not repeat the email when it is the title', () => {
    expect(userLines({ name: ' ', email: 'a@b.et' })).toEqual({ title: 'a@b.et', lines: [] });
  });
});
