/** Any other path: the not-found page, with the 404 status. */
export function loader() {
  throw new Response('Not found', { status: 404 });
}

export default function Splat() {
  return null;
}
