// The public dispute statistics (issue 24, GET /rest/v1/transparency): what the /transparency page
// shows. Counts are whole numbers; times are minutes; shares are between 0 and 1. A figure drawn
// from fewer than `minimumDisputes` disputes is withheld (null, `withheld: true`), so no single
// person's dispute can be read out of a small group.

export interface DisputeFigures {
  /** Trades started in the window. */
  trades: number;
  /** Disputes opened in the window (a moderator's reopening counts as a new one). */
  disputes: number;
  /** Disputes per thousand trades, one decimal; null without trades. */
  perThousandTrades: number | null;
  /** Median minutes from opening to the first moderator's word or act; null when withheld or none yet. */
  medianFirstResponseMinutes: number | null;
  /** Median minutes from opening to a moderator's decision. */
  medianDecisionMinutes: number | null;
  /** Disputes a moderator decided, and of those the shares decided for the buyer and for the seller. */
  decided: number;
  forBuyerShare: number | null;
  forSellerShare: number | null;
  /** Disputes the parties ended themselves: the seller released or the buyer cancelled. */
  settledByParties: number;
  /** Disputes still open. */
  open: number;
  /** True when the medians and shares are withheld because too few disputes stand behind them. */
  withheld: boolean;
}

export interface GroupFigures extends DisputeFigures {
  /** The payment-method group's slug (`paymentGroup.<slug>.name` names it). */
  group: string;
}

export interface TransparencyWindow {
  days: 30 | 365;
  /** Unix ms: the window runs from here to `generatedAt`. */
  since: number;
  overall: DisputeFigures;
  groups: GroupFigures[];
}

export interface TransparencyMonth {
  /** `YYYY-MM`, UTC. */
  month: string;
  trades: number;
  disputes: number;
  perThousandTrades: number | null;
}

export interface TransparencyView {
  generatedAt: number;
  minimumDisputes: number;
  windows: TransparencyWindow[];
  /** The last twelve calendar months, oldest first, the current one last (so far). */
  months: TransparencyMonth[];
}
