import { useEffect, useMemo, useRef } from 'react';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { JoinCard } from './JoinCard.tsx';
import { ReferralLink } from './ReferralLink.tsx';
import { ReferralTable } from './ReferralTable.tsx';
import { SummaryCards } from './SummaryCards.tsx';
import type { AffiliatesProps, T } from './types.ts';
import { useReferrals } from './use-referrals.ts';
import { type SummaryState, useSummary } from './use-summary.ts';
import { useTier2 } from './use-tier2.ts';

// The affiliate programme screen (issue 20; spec sections 2, 7 and 8): for someone who has not
// joined, the invitation; for an affiliate, the summary with the move to the wallet, the referral
// link with its QR code, and the referral table. The page renders it with the summary and the
// table's first page, so hydration never mismatches; joining swaps the screen in place.

export default function AffiliatesApp(props: AffiliatesProps) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const state = useSummary(props.summary, props.locale, t);
  const joined = useRef(state.summary.isAffiliate);
  useEffect(() => {
    // Just joined: the button that had the focus is gone; the new screen's first heading takes it.
    if (state.summary.isAffiliate && !joined.current) document.getElementById('aff-summary-title')?.focus();
    joined.current = state.summary.isAffiliate;
  }, [state.summary.isAffiliate]);
  if (!state.summary.isAffiliate) return <JoinCard t={t} lang={props.lang} state={state} />;
  return <AffiliateScreen props={props} t={t} state={state} />;
}

function AffiliateScreen({ props, t, state }: { props: AffiliatesProps; t: T; state: SummaryState }) {
  const referrals = useReferrals(props.username, props.locale, props.referrals, t);
  const tier2 = useTier2(props.locale, t);
  const { summary } = state;
  return (
    <div className="aff-app" data-testid="affiliate-screen">
      <SummaryCards t={t} lang={props.lang} state={state} />
      <ReferralLink t={t} lang={props.lang} link={summary.link} qrSvg={props.qrSvg} rates={summary.rates} />
      <ReferralTable t={t} locale={props.locale} lang={props.lang} state={referrals} tier2={tier2} />
    </div>
  );
}
