import { json, type MetaFunction } from '@remix-run/node';
import { NotFound } from '../components/NotFound';
import { titleMeta } from '../shop-context';

export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'errors.notFound')];

/** /404 answers with the 404 status, so search engines never index it as a page. */
export const loader = () => json(null, { status: 404 });

export default function NotFoundRoute() {
  return <NotFound />;
}
