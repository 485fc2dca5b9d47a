import { useState } from 'react';
import { ADMIN_TEXT } from './admin-text.ts';
import { OperatorConfirm } from './OperatorConfirm.tsx';
import { SendoutsTable } from './SendoutsTable.tsx';
import {
  type SendoutAction,
  type SendoutList,
  type SendoutsPage,
  type SendoutView,
  useSendouts,
} from './use-sendouts.ts';

// The sendouts screen's island (issue 25; docs/decisions/152-operator-sendouts.md): the list the
// page rendered, "more" for older ones, and retry or cancel, each confirmed with a reason and the
// operator's second factor. Cancelling shows decision 152's warning: check the node first.

const TEXT = ADMIN_TEXT.sendouts;

interface Props {
  list: SendoutList;
  first: SendoutsPage;
  /** Unix ms the page was rendered: ages are counted from it until the list is read again. */
  renderedAt: number;
  /** The console's People screen, where `?q=usr_…` opens the person's file. */
  personHref: string;
}

function ConfirmExtra({ action }: { action: SendoutAction }) {
  return (
    <>
      <p>{action === 'retry' ? TEXT.retryNote : TEXT.cancelNote}</p>
      <p className="alert alert-info admin-money-warning" data-check-node>
        {TEXT.checkNode}
      </p>
    </>
  );
}

export default function SendoutsConsole({ list, first, renderedAt, personHref }: Props) {
  const state = useSendouts(list, first, renderedAt);
  const [asked, setAsked] = useState<{ sendout: SendoutView; action: SendoutAction } | undefined>();
  return (
    <div className="admin-money-island" data-sendouts={list}>
      <p className="alert alert-info admin-money-warning">{TEXT.checkNode}</p>
      <p className="alert alert-success" role="status" hidden={!state.notice} data-sendouts-notice>
        {state.notice}
      </p>
      <p className="alert alert-error" role="alert" hidden={!state.error} data-sendouts-error>
        {state.error}
      </p>
      {state.items.length === 0 ? (
        <p className="card admin-money-empty" data-empty>
          {TEXT.empty[list]}
        </p>
      ) : (
        <SendoutsTable
          items={state.items}
          now={state.now}
          personHref={personHref}
          onAction={(sendout, action) => setAsked({ sendout, action })}
        />
      )}
      {state.hasMore && (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={state.loading}
          aria-busy={state.loading || undefined}
          data-more
          onClick={() => void state.more()}
        >
          {state.loading ? ADMIN_TEXT.loading : ADMIN_TEXT.more}
        </button>
      )}
      <OperatorConfirm
        open={asked !== undefined}
        title={asked ? TEXT[asked.action === 'retry' ? 'retryTitle' : 'cancelTitle'](asked.sendout.id) : ''}
        labels={ADMIN_TEXT.confirm}
        extra={asked ? <ConfirmExtra action={asked.action} /> : undefined}
        onConfirm={async (input) => (asked ? state.act(asked.sendout, asked.action, input) : {})}
        onClose={() => setAsked(undefined)}
      />
    </div>
  );
}
