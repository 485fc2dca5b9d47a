import type { ExportFile, Section } from './section.ts';
import {
  DEPOSIT_COLUMNS,
  depositsSection,
  FEE_COLUMNS,
  LEDGER_COLUMNS,
  ledgerSection,
  networkFeesSection,
  SENDOUT_COLUMNS,
  sendoutsSection,
  tradeFeesSection,
} from './sections-money.ts';
import {
  CHAT_COLUMNS,
  chatSection,
  FEEDBACK_COLUMNS,
  feedbackGivenSection,
  feedbackReceivedSection,
  TRADE_COLUMNS,
  tradesSection,
} from './sections-trades.ts';

export { EXPORT_FILES, type ExportFile, type ExportRange } from './section.ts';

/**
 * The build's order: an export's `section` column is an index into this list, so it only ever
 * grows at the end (an export that stopped half way continues after a deployment).
 */
export const SECTIONS: readonly Section[] = [
  tradesSection,
  ledgerSection,
  tradeFeesSection,
  networkFeesSection,
  chatSection,
  feedbackGivenSection,
  feedbackReceivedSection,
  depositsSection,
  sendoutsSection,
] as Section[];

/** Each file's columns: the CSV header line and the JSON objects' keys. */
export const FILE_COLUMNS: Record<ExportFile, readonly string[]> = {
  trades: TRADE_COLUMNS,
  ledger: LEDGER_COLUMNS,
  fees: FEE_COLUMNS,
  chat: CHAT_COLUMNS,
  feedback: FEEDBACK_COLUMNS,
  deposits: DEPOSIT_COLUMNS,
  sendouts: SENDOUT_COLUMNS,
};

/** The section indexes that fill `file`, in build order. */
export const sectionsOf = (file: ExportFile) =>
  SECTIONS.flatMap((section, index) => (section.file === file ? [index] : []));
