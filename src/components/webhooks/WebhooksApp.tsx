import { useEffect, useMemo, useRef, useState } from 'react';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { WebhookView } from '../../lib/shared/webhooks.ts';
import { failureOf, messageOf, webhooksApi } from './api.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { EventsCard } from './EventsCard.tsx';
import { JoinCard } from './JoinCard.tsx';
import { SecretCard } from './SecretCard.tsx';
import type { Announce, DeliveriesPage, T, WebhooksProps } from './types.ts';
import { UrlCard } from './UrlCard.tsx';
import { useDeliveries } from './use-deliveries.ts';
import { useWebhook } from './use-webhook.ts';

// The merchant's webhooks screen (issue 21; spec section 4 "Webhook"): for someone who is not a
// merchant, the invitation; for a merchant, the address with its status, the signing secret, the
// events and the delivery log. The page renders it with the webhook and the log's first page, so
// hydration never mismatches; becoming a merchant swaps the screen in place. One live region
// tells screen readers what changed.

export default function WebhooksApp(props: WebhooksProps) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const [said, setSaid] = useState('');
  const announce: Announce = (text) => setSaid(text);
  const merchant = useMerchant(props, t);
  return (
    <div className="wh-app">
      {merchant.webhook ? (
        <MerchantScreen
          props={props}
          t={t}
          webhook={merchant.webhook}
          deliveries={merchant.deliveries}
          announce={announce}
        />
      ) : (
        <JoinCard
          t={t}
          isIdVerified={props.isIdVerified}
          verificationLink={props.verificationLink}
          guideLink={props.guideLink}
          joining={merchant.joining}
          error={merchant.error}
          onJoin={() => void merchant.join()}
        />
      )}
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="webhooks-live">
        {said}
      </p>
    </div>
  );
}

/** Whether the person is a merchant (their webhook then), and becoming one in place. */
function useMerchant(props: WebhooksProps, t: T) {
  const [webhook, setWebhook] = useState<WebhookView | null>(props.isMerchant ? props.webhook : null);
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const join = async () => {
    setJoining(true);
    setError(null);
    const joined = await webhooksApi.join(props.locale);
    const read = joined.ok ? await webhooksApi.read(props.locale) : failureOf<WebhookView>(joined);
    setJoining(false);
    if (read.ok && read.data) setWebhook(read.data);
    else setError(messageOf(read, t('webhooks.join.failed')));
  };
  // Just became a merchant: the button that had the focus is gone; the new screen's heading takes it.
  const was = useRef(webhook !== null);
  useEffect(() => {
    if (webhook && !was.current) document.getElementById('wh-url-title')?.focus();
    was.current = webhook !== null;
  }, [webhook]);
  return { webhook, deliveries: props.isMerchant ? props.deliveries : null, joining, error, join };
}

function MerchantScreen({
  props,
  t,
  webhook,
  deliveries,
  announce,
}: {
  props: WebhooksProps;
  t: T;
  webhook: WebhookView;
  deliveries: DeliveriesPage | null;
  announce: Announce;
}) {
  const state = useWebhook(webhook, props.locale, t, announce);
  const log = useDeliveries(props.locale, deliveries, t, announce);
  return (
    <div className="wh-screen" data-testid="webhook-screen">
      <UrlCard t={t} state={state} guideLink={props.guideLink} />
      <SecretCard t={t} lang={props.lang} view={state.view} state={state.secret} announce={announce} />
      <EventsCard t={t} view={state.view} state={state.events} />
      <DeliveryLog t={t} lang={props.lang} state={log} canTest={state.status === 'enabled'} />
    </div>
  );
}
