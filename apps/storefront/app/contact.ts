/** The contact form's fields and their checks (docs/product.md §5: all four are required). */
export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactForm = Record<ContactField, string>;

export const CONTACT_MAX_LENGTH: Record<ContactField, number> = {
  name: 100,
  email: 254,
  subject: 200,
  message: 5000,
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Field errors as translation keys; an empty object when the form is valid. */
export function validateContact(form: ContactForm): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {};
  for (const field of CONTACT_FIELDS) {
    if (!form[field].trim()) errors[field] = `contact.errors.${field}Required`;
    else if (form[field].length > CONTACT_MAX_LENGTH[field]) errors[field] = `contact.errors.tooLong`;
  }
  if (!errors.email && !EMAIL.test(form.email.trim())) errors.email = 'contact.errors.emailInvalid';
  return errors;
}

export function readContactForm(data: FormData): ContactForm {
  const value = (k: ContactField) => String(data.get(k) ?? '');
  return { name: value('name'), email: value('email'), subject: value('subject'), message: value('message') };
}
