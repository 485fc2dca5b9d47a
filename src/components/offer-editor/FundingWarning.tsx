// The vendor's warning on a sell offer their wallet cannot fund (docs/decisions/121-unfunded-sell-offers.md):
// buyers do not see it until the wallet covers its smallest trade with the fee, and the way to fix
// that is a deposit. One component for My offers (rendered on the server, no JavaScript) and the
// offer editor's island, each passing its own translated words.

export interface FundingWarningProps {
  title: string;
  /** What the wallet holds and what the offer needs, already worded. */
  text: string;
  depositLabel: string;
  /** /wallet in the page's language. */
  depositHref: string;
}

export function FundingWarning({ title, text, depositLabel, depositHref }: FundingWarningProps) {
  return (
    <div className="alert alert-warning funding-warning" role="status" data-testid="offer-no-coins">
      <p className="funding-warning-title">{title}</p>
      <p>{text}</p>
      <a className="btn btn-secondary btn-sm" href={depositHref}>
        {depositLabel}
      </a>
    </div>
  );
}
