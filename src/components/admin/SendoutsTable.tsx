import { useState } from 'react';
import { ADMIN_TEXT, ageOf, shortened, utcTime } from './admin-text.ts';
import { actionsOf, type SendoutAction, type SendoutView, stateOf } from './use-sendouts.ts';

// One list of sendouts as a table (on a phone each row a small card with its labels): id, the
// person (to their file in the console), the amount as the API writes it, the address shortened
// and copyable, the state and the age; retry and cancel where decision 152 allows them.

const TEXT = ADMIN_TEXT.sendouts;

function CopyAddress({ sendout }: { sendout: SendoutView }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="admin-money-address">
      <code title={sendout.address}>{shortened(sendout.address)}</code>
      <button
        type="button"
        className="btn btn-ghost admin-money-small"
        aria-label={TEXT.copyLabel(sendout.id)}
        data-copy-address={sendout.id}
        onClick={() => {
          void navigator.clipboard?.writeText(sendout.address).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? TEXT.copied : TEXT.copy}
      </button>
    </span>
  );
}

function Row({
  sendout,
  now,
  personHref,
  onAction,
}: {
  sendout: SendoutView;
  now: number;
  personHref: string;
  onAction: (sendout: SendoutView, action: SendoutAction) => void;
}) {
  const state = stateOf(sendout);
  const C = TEXT.columns;
  return (
    <tr data-sendout={sendout.id} data-state={state}>
      <td data-label={C.id}>
        <code>{sendout.id}</code>
      </td>
      <td data-label={C.person}>
        <a className="text-link" href={`${personHref}?q=${encodeURIComponent(sendout.person.publicId)}`}>
          <bdi>{sendout.person.username}</bdi>
        </a>
      </td>
      <td data-label={C.amount} className="admin-money-num">
        {sendout.amount} {sendout.currency}
      </td>
      <td data-label={C.address}>
        <CopyAddress sendout={sendout} />
      </td>
      <td data-label={C.state}>
        {/* One block: on a phone the cell is a label column and a value column. */}
        <div>
          <span className={`admin-money-state admin-money-state-${state}`}>{TEXT.states[state] ?? state}</span>
          {sendout.status === 'broadcast' && (
            <span className="muted admin-money-sub">
              {TEXT.confirmations(sendout.confirmations, sendout.requiredConfirmations)}
            </span>
          )}
          {sendout.failureReason && <span className="muted admin-money-sub">{sendout.failureReason}</span>}
        </div>
      </td>
      <td data-label={C.age}>
        <span title={utcTime(sendout.createdAt)}>{ageOf(sendout.createdAt, now)}</span>
      </td>
      <td className="admin-money-actions">
        {actionsOf(sendout).map((action) => (
          <button
            key={action}
            type="button"
            className={`btn ${action === 'cancel' ? 'btn-secondary' : 'btn-primary'} admin-money-small`}
            data-sendout-action={action}
            onClick={() => onAction(sendout, action)}
          >
            {action === 'retry' ? TEXT.retry : TEXT.cancel}
          </button>
        ))}
      </td>
    </tr>
  );
}

export function SendoutsTable(props: {
  items: SendoutView[];
  now: number;
  personHref: string;
  onAction: (sendout: SendoutView, action: SendoutAction) => void;
}) {
  const C = TEXT.columns;
  return (
    <table className="admin-money-table admin-money-cards">
      <thead>
        <tr>
          <th scope="col">{C.id}</th>
          <th scope="col">{C.person}</th>
          <th scope="col" className="admin-money-num">
            {C.amount}
          </th>
          <th scope="col">{C.address}</th>
          <th scope="col">{C.state}</th>
          <th scope="col">{C.age}</th>
          <th scope="col">
            <span className="visually-hidden">{TEXT.retry}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.items.map((sendout) => (
          <Row
            key={sendout.id}
            sendout={sendout}
            now={props.now}
            personHref={props.personHref}
            onAction={props.onAction}
          />
        ))}
      </tbody>
    </table>
  );
}
