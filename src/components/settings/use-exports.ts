import { useEffect, useRef, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import type { ExportFormat, ExportView } from '../../lib/shared/exports.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';

// The export panel's state (issue 24; docs/decisions/158-data-exports.md): the person's exports,
// the request on its way, its failure or confirmation. While one of them is being built the list
// is asked for again every two seconds, so the progress moves and a finished file gets its link.

const PATH = '/rest/v1/exports';
export const POLL_MS = 2_000;

export interface ExportRequest {
  format: ExportFormat;
  from: string;
  to: string;
}

const building = (list: ExportView[]) => list.some((e) => e.status === 'queued' || e.status === 'building');

export function useExports(initial: ExportView[]) {
  const { t, locale, lang } = useSettings();
  const [exports, setExports] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Each answer arms the next wait while something is still being built.
  const [polls, setPolls] = useState(0);
  const waiting = building(exports);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(
      async () => {
        const result = await apiGet<ExportView[]>(localized(PATH, locale));
        if (!mounted.current) return;
        if (result.ok && result.data) setExports(result.data);
        setPolls((n) => n + 1);
      },
      POLL_MS + polls * 0,
    );
    return () => clearTimeout(timer);
  }, [waiting, polls, locale]);

  /** True when the export was requested (the form may stay as it is for another). */
  const request = async (input: ExportRequest): Promise<boolean> => {
    const fields: Record<string, string> = {};
    if (!input.from) fields.from = t('settings.export.dayRequired');
    if (!input.to) fields.to = t('settings.export.dayRequired');
    if (input.from && input.to && input.to < input.from) fields.to = t('settings.export.toBeforeFrom');
    setDone(undefined);
    if (Object.keys(fields).length > 0) {
      setFailure({ summary: undefined, fields });
      return false;
    }
    setBusy(true);
    setFailure(noFailure);
    const result = await apiPost<ExportView>(localized(PATH, locale), input);
    setBusy(false);
    if (result.ok && result.data) {
      const made = result.data;
      setExports((list) => [made, ...list.filter((e) => e.id !== made.id)]);
      setDone(t('settings.export.requested'));
      return true;
    }
    setFailure(failureOf(result, ['format', 'from', 'to'], { t, lang }));
    return false;
  };

  return { exports, busy, failure, done, request };
}
