import { useMemo, useState } from 'react';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { KioskSaleView, KioskView } from '../../lib/shared/views/kiosks.ts';
import { BalanceCard } from './BalanceCard.tsx';
import { InfoCard } from './InfoCard.tsx';
import { MarginCard } from './MarginCard.tsx';
import { SaleCard } from './SaleCard.tsx';
import { SalesTable } from './SalesTable.tsx';
import type { Announce, KioskProps, T } from './types.ts';

// The kiosk's counter screen (issue 21; docs/kiosks-and-merchants.md): the kiosk balance in both
// currencies with the form that funds it from the wallet and moves it back, the margin over the
// market price, the sale (customer, crypto and cash → quote → confirm → receipt) and the latest
// sales. Someone who is not a kiosk reads what a kiosk is and how to get one. The page renders it
// with the kiosk's data, so hydration never mismatches; one live region tells screen readers what
// changed.

export default function KioskApp(props: KioskProps) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const [said, setSaid] = useState('');
  const announce: Announce = (text) => setSaid(text);
  return (
    <div className="kiosk-app">
      {props.kiosk ? (
        <KioskScreen props={props} t={t} initial={props.kiosk} announce={announce} />
      ) : (
        <InfoCard t={t} supportLink={props.supportLink} />
      )}
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="kiosk-live">
        {said}
      </p>
    </div>
  );
}

function KioskScreen({
  props,
  t,
  initial,
  announce,
}: {
  props: KioskProps;
  t: T;
  initial: KioskView;
  announce: Announce;
}) {
  const [view, setView] = useState(initial);
  const sold = (sale: KioskSaleView, balance: KioskView['balance']) =>
    setView((now) => ({ ...now, balance, sales: [sale, ...now.sales.filter((s) => s.id !== sale.id)] }));
  const { locale, lang } = props;
  return (
    <div className="kiosk-screen" data-testid="kiosk-screen">
      <div className="kiosk-top">
        <BalanceCard
          t={t}
          locale={locale}
          lang={lang}
          balance={view.balance}
          walletLink={props.walletLink}
          onBalance={(balance) => setView((now) => ({ ...now, balance }))}
          announce={announce}
        />
        <MarginCard
          t={t}
          locale={locale}
          lang={lang}
          marginPercent={view.marginPercent}
          onView={(next) => setView((now) => ({ ...now, marginPercent: next.marginPercent }))}
          announce={announce}
        />
      </div>
      <SaleCard
        t={t}
        locale={locale}
        lang={lang}
        currencies={props.currencies}
        defaultFiat={props.defaultFiat}
        onSold={sold}
        announce={announce}
      />
      <SalesTable t={t} lang={lang} sales={view.sales} />
    </div>
  );
}
