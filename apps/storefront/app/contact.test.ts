import { describe, expect, it } from 'vitest';
import { validateContact } from './contact';

const valid = {
  name: 'Hana',
  email: 'hana@example.com',
  subject: 'Shea butter',
  message: 'Is it good for dry skin?',
};

describe('contact form', () => {
  it('accepts a complete message', () => {
    expect(validateContact(valid)).toEqual({});
  });

  it('requires name, email, subject and message', () => {
    expect(validateContact({ name: ' ', email: '', subject: '', message: '' })).toEqual({
      name: 'contact.errors.nameRequired',
      email: 'contact.errors.emailRequired',
      subject: 'contact.errors.subjectRequired',
      message: 'contact.errors.messageRequired',
    });
  });

  it('refuses an address that is not an email', () => {
    expect(validateContact({ ...valid, email: 'hana.example.com' })).toEqual({
      email: 'contact.errors.emailInvalid',
    });
  });

  it('refuses an over-long message', () => {
    expect(validateContact({ ...valid, message: 'x'.repeat(5001) })).toEqual({
      message: 'contact.errors.tooLong',
    });
  });
});
