import type { DataProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { lazyDataProvider } from './AdminShell';

describe('the data provider loaded with its first call', () => {
  it('loads once, on the first call, and forwards every call with its arguments and answer', async () => {
    const getList = vi.fn(async () => ({ data: [{ id: 1 }], total: 1 }));
    const getOne = vi.fn(async (_resource: string, params: { id: string }) => ({ data: { id: params.id } }));
    const load = vi.fn(async () => ({ getList, getOne }) as unknown as DataProvider);
    const provider = lazyDataProvider(load);
    expect(load).not.toHaveBeenCalled();
    const params = { pagination: { page: 1, perPage: 5 }, sort: { field: 'id', order: 'ASC' }, filter: {} };
    await expect(provider.getList('orders', params as never)).resolves.toEqual({
      data: [{ id: 1 }],
      total: 1,
    });
    expect(getList).toHaveBeenCalledWith('orders', params);
    await expect(provider.getOne('users', { id: 'u1' })).resolves.toEqual({ data: { id: 'u1' } });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('passes refusals on, and is neither a thenable nor claiming AbortSignal support', async () => {
    const refusal = new Error('shop.admin.products.saveFailed');
    const provider = lazyDataProvider(async () => ({ create: async () => Promise.reject(refusal) }) as never);
    await expect(provider.create('products', { data: {} })).rejects.toBe(refusal);
    expect((provider as unknown as { then?: unknown }).then).toBeUndefined();
    expect(provider.supportAbortSignal).toBeUndefined();
    await expect(Promise.resolve(provider)).resolves.toBe(provider);
  });
});
