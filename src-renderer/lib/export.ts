import type { ExportResult } from '../../src-main/contract/index.ts';

/** Browser mode hands the CSV back as text: offer it as a file download. */
export function offerDownload(result: Extract<ExportResult, { kind: 'download' }>): void {
  const blob = new Blob([result.content], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = result.fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
