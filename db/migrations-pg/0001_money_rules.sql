-- Written by hand (drizzle-kit does not model triggers): the rules SQLite enforces with the
-- triggers of 0009_ledger.sql, 0012_trades.sql and 0017_session_revocations.sql, enforced by
-- PostgreSQL the same way, so a bug in code (or a hand-typed statement) cannot break them on
-- either engine. The CHECK constraints (no negative wallet or escrow, currency match, an escrow
-- resolved empty) come from the schema in 0000_init.sql.
CREATE FUNCTION coinfair_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
-- The ledger is append-only: corrections are new transactions; only an account's cached balance
-- and an escrow's resolution change.
CREATE TRIGGER ledger_transactions_no_update BEFORE UPDATE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('ledger_transactions is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_transactions_no_delete BEFORE DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('ledger_transactions is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_postings_no_update BEFORE UPDATE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('ledger_postings is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_postings_no_delete BEFORE DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('ledger_postings is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_audit_no_update BEFORE UPDATE ON ledger_audit
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('ledger_audit is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_audit_no_delete BEFORE DELETE ON ledger_audit
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('ledger_audit is append-only');--> statement-breakpoint
-- TRUNCATE skips row triggers, so it is refused on its own.
CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION coinfair_refuse('the ledger is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings
  FOR EACH STATEMENT EXECUTE FUNCTION coinfair_refuse('the ledger is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_audit_no_truncate BEFORE TRUNCATE ON ledger_audit
  FOR EACH STATEMENT EXECUTE FUNCTION coinfair_refuse('the ledger is append-only');--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('ledger accounts are never deleted');--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION coinfair_refuse('ledger accounts are never deleted');--> statement-breakpoint
CREATE TRIGGER ledger_accounts_identity_fixed
  BEFORE UPDATE OF kind, owner_id, currency, reference, allow_negative, created_at ON ledger_accounts
  FOR EACH ROW WHEN ((OLD.kind, OLD.owner_id, OLD.currency, OLD.reference, OLD.allow_negative, OLD.created_at)
    IS DISTINCT FROM (NEW.kind, NEW.owner_id, NEW.currency, NEW.reference, NEW.allow_negative, NEW.created_at))
  EXECUTE FUNCTION coinfair_refuse('a ledger account keeps its identity');--> statement-breakpoint
-- An escrow resolves at most once: once resolved_at is set, neither it nor the resolution changes.
CREATE TRIGGER ledger_accounts_resolve_once BEFORE UPDATE OF resolved_at, resolution ON ledger_accounts
  FOR EACH ROW WHEN (OLD.resolved_at IS NOT NULL)
  EXECUTE FUNCTION coinfair_refuse('ledger escrow resolved already');--> statement-breakpoint
-- The trail of a trade's transitions is append-only, and a trade keeps its parties and amounts.
CREATE TRIGGER trade_transitions_no_update BEFORE UPDATE ON trade_transitions
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('trade_transitions is append-only');--> statement-breakpoint
CREATE TRIGGER trade_transitions_no_delete BEFORE DELETE ON trade_transitions
  FOR EACH ROW EXECUTE FUNCTION coinfair_refuse('trade_transitions is append-only');--> statement-breakpoint
CREATE TRIGGER trades_terms_fixed
  BEFORE UPDATE OF buyer_id, seller_id, crypto_code, crypto_amount, fee_amount, fiat_amount_minor, fiat_currency_id, price_minor
  ON trades
  FOR EACH ROW WHEN ((OLD.buyer_id, OLD.seller_id, OLD.crypto_code, OLD.crypto_amount, OLD.fee_amount,
      OLD.fiat_amount_minor, OLD.fiat_currency_id, OLD.price_minor)
    IS DISTINCT FROM (NEW.buyer_id, NEW.seller_id, NEW.crypto_code, NEW.crypto_amount, NEW.fee_amount,
      NEW.fiat_amount_minor, NEW.fiat_currency_id, NEW.price_minor))
  EXECUTE FUNCTION coinfair_refuse('a trade keeps its parties and amounts');--> statement-breakpoint
-- Every delete from sessions, by any statement or process, leaves a row every server process's
-- poll turns into cut sockets (server/realtime/session-ends.ts).
CREATE FUNCTION sessions_record_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO session_revocations (session_public_id, user_id, ended_at)
  VALUES (OLD.public_id, OLD.user_id, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint);
  RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER sessions_record_end AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION sessions_record_end();
