import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { isLocalStore, localStoreOffered } from './localStore';

describe('local mail and SMS menu entries', () => {
  it('are the development stores only', () => {
    expect(isLocalStore('sms')).toBe(true);
    expect(isLocalStore('mails')).toBe(true);
    expect(isLocalStore('orders')).toBe(false);
  });

  it('show once the API answered the list, and stay hidden while it is asked', () => {
    expect(localStoreOffered({ isPending: true })).toBe(false);
    expect(localStoreOffered({ isPending: false })).toBe(true);
  });

  it('stay hidden when the API has no such store (404), and show for any other failure', () => {
    expect(localStoreOffered({ isPending: false, error: new HttpError('Not found', 404) })).toBe(false);
    expect(localStoreOffered({ isPending: false, error: new HttpError('Server error', 500) })).toBe(true);
    expect(localStoreOffered({ isPending: false, error: new TypeError('Failed to fetch') })).toBe(true);
  });
});
