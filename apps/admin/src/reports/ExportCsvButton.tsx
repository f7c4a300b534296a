import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useListContext, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { apiUrl } from '../config';
import { exportUrl } from './exportUrl';

/**
 * Downloads the list as the API's CSV (GET /api/admin/{resource}/export.csv: the list's filters and
 * sort, the shop clock, ETB, UTF-8 with BOM), in place of react-admin's exporter
 * (docs/decisions/0081-replies-shop-clock-reports.md).
 */
export function ExportCsvButton({ resource }: { resource: 'orders' | 'users' }) {
  const t = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const { filterValues, sort } = useListContext();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const url = exportUrl(apiUrl, resource, filterValues, sort, locale === 'am' ? 'am' : 'en');
      const response = await fetch(url, { credentials: 'include' });
      if (!response.ok) throw new Error(String(response.status));
      const name =
        /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ??
        `${resource}.csv`;
      const href = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = href;
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), 1000);
    } catch {
      notify('shop.admin.reports.exportFailed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      onClick={download}
      disabled={busy}
      aria-label={t('shop.admin.reports.exportCsv')}
      title={t('shop.admin.reports.exportCsv')}
      data-testid={`export-${resource}`}
    >
      {t('shop.admin.reports.export')}
    </Button>
  );
}
