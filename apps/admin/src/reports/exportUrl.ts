/** The export's address: the list's filter and sort as react-admin sends them, and the language of the headers. */
export function exportUrl(
  apiBase: string,
  resource: string,
  filter: Record<string, unknown> | undefined,
  sort: { field: string; order: string } | undefined,
  lang: 'en' | 'am',
): string {
  const params = new URLSearchParams({ lang });
  const kept = Object.fromEntries(
    Object.entries(filter ?? {}).filter(([, v]) => v !== undefined && v !== '' && v !== null),
  );
  if (Object.keys(kept).length) params.set('filter', JSON.stringify(kept));
  if (sort?.field) params.set('sort', JSON.stringify([sort.field, sort.order === 'ASC' ? 'ASC' : 'DESC']));
  return `${apiBase}/admin/${resource}/export.csv?${params.toString()}`;
}
