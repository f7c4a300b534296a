import { useEffect, useState } from 'react';
import { Menu } from 'react-admin';
import { shopClient } from '../shopApi';
import { localStoreOffered, type LocalStore } from './localStore';

type Probe = { isPending: boolean; error?: unknown };

/** One probe per store and page load: whether the API offers a store does not change while it runs. */
const probes = new Map<LocalStore, Promise<Probe>>();

/**
 * Asks the store for one record with the typed client, not the data provider: the menu is drawn with the
 * dashboard, which would otherwise fetch the REST data provider only for this
 * (docs/decisions/0088-back-office-within-budget.md).
 */
function probe(name: LocalStore): Promise<Probe> {
  let answer = probes.get(name);
  if (!answer) {
    const query = { params: { query: { range: '[0,0]', sort: '["id","DESC"]' } } };
    const call =
      name === 'mails'
        ? shopClient().GET('/api/admin/mails', query)
        : shopClient().GET('/api/admin/sms', query);
    answer = call.then(
      ({ response }) =>
        response.ok ? { isPending: false } : { isPending: false, error: { status: response.status } },
      (error: unknown) => ({ isPending: false, error }),
    );
    probes.set(name, answer);
  }
  return answer;
}

/** A local store's menu entry (local mail, local SMS), shown only where the API offers the store. */
export function LocalStoreMenuItem({ name }: { name: LocalStore }) {
  const [state, setState] = useState<Probe>({ isPending: true });
  useEffect(() => {
    let shown = true;
    void probe(name).then((answer) => shown && setState(answer));
    return () => {
      shown = false;
    };
  }, [name]);
  if (!localStoreOffered(state)) return null;
  return <Menu.ResourceItem name={name} />;
}
