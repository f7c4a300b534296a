import { describe, expect, it } from 'vitest';
import { exportUrl } from './exportUrl';

describe('the export address', () => {
  it('carries the list filters (empty ones dropped), the sort and the language', () => {
    const url = new URL(
      exportUrl(
        'https://api.test/api',
        'orders',
        { status: 'pending', q: '', paymentMethod: ['chapa'] },
        { field: 'createdAt', order: 'ASC' },
        'am',
      ),
    );
    expect(url.pathname).toBe('/api/admin/orders/export.csv');
    expect(url.searchParams.get('lang')).toBe('am');
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual({
      status: 'pending',
      paymentMethod: ['chapa'],
    });
    expect(JSON.parse(url.searchParams.get('sort')!)).toEqual(['createdAt', 'ASC']);
  });

  it('sends no filter when the list has none', () => {
    const url = new URL(exportUrl('https://api.test/api', 'users', {}, undefined, 'en'));
    expect(url.searchParams.has('filter')).toBe(false);
    expect(url.searchParams.has('sort')).toBe(false);
  });
});
