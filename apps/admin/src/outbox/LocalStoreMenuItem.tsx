import { Menu, useGetList } from 'react-admin';
import { localStoreOffered } from './localStore';

/** A local store's menu entry (local mail, local SMS), shown only where the API offers the store. */
export function LocalStoreMenuItem({ name }: { name: string }) {
  const probe = useGetList(
    name,
    { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'DESC' } },
    { retry: false, staleTime: 5 * 60_000 },
  );
  if (!localStoreOffered(probe)) return null;
  return <Menu.ResourceItem name={name} />;
}
