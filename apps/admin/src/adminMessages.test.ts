import { dictionaries } from '@shop/i18n';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };
const flat = (t: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(t).flatMap(([k, v]) =>
      typeof v === 'string' ? [[prefix + k, v]] : Object.entries(flat(v, `${prefix}${k}.`)),
    ),
  );

/** docs/product.md §8 (and the admin screens): the key the back office shows for each message. */
const SPEC_MESSAGES: Record<string, string> = {
  'admin.dashboard.failed': 'Failed to fetch dashboard statistics',
  'admin.products.deleteFailed': 'Failed to delete product',
  'admin.products.saveFailed': 'Failed to save product',
  'admin.products.deleted': 'Product deleted successfully',
  'admin.products.saved': 'Product saved successfully',
  'admin.products.uploadFailed': 'Failed to upload image',
  'admin.products.imageTooLarge': 'File size must be less than 5MB',
  'admin.users.fetchFailed': 'Error fetching users',
  'admin.users.deleteFailed': 'Error deleting user',
  'admin.users.statusFailed': 'Error updating user status',
  'admin.users.roleFailed': 'Error updating user role',
  'admin.users.createFailed': 'Failed to create user',
  'admin.users.deleted': 'User deleted successfully',
  'admin.users.statusUpdated': 'User status updated successfully',
  'admin.users.roleUpdated': 'User role updated successfully',
  'admin.users.created': 'User created',
  'admin.contacts.fetchFailed': 'Failed to fetch contacts',
  'admin.contacts.statusFailed': 'Failed to update contact status',
  'admin.contacts.deleteFailed': 'Failed to delete contact',
  'admin.contacts.statusUpdated': 'Contact status updated successfully',
  'admin.contacts.deleted': 'Contact deleted successfully',
  'admin.settings.loadFailed': 'Failed to load settings',
  'admin.settings.saveFailed': 'Failed to save settings',
  'admin.settings.saved': 'Settings saved',
  'admin.orders.statusFailed': 'Failed to update order status. Please try again.',
  'admin.orders.listFailed': 'Failed to fetch orders.',
  'admin.orders.refreshFailed': 'Failed to refresh orders',
  'admin.orders.fetchFailed': 'Failed to fetch order details',
};

describe('back-office messages', () => {
  const en = flat(dictionaries.en as unknown as Tree);
  const am = flat(dictionaries.am as unknown as Tree);

  it('has every spec message in English, word for word', () => {
    for (const [key, text] of Object.entries(SPEC_MESSAGES)) expect([key, en[key]]).toEqual([key, text]);
  });

  it('has every spec message in Amharic, translated', () => {
    for (const key of Object.keys(SPEC_MESSAGES)) {
      expect(am[key], key).toMatch(/[\u1200-\u137F]/);
      expect(am[key], key).not.toBe(en[key]);
    }
  });

  it('has the same admin keys in both languages', () => {
    const adminKeys = (d: Record<string, string>) =>
      Object.keys(d)
        .filter((k) => k.startsWith('admin.'))
        .sort();
    expect(adminKeys(am)).toEqual(adminKeys(en));
  });
});
