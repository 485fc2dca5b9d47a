import {
  MAX_TRADE_REQUIREMENTS,
  type OfferTradeRequirement,
  TRADE_REQUIREMENT_KINDS,
  TRADE_REQUIREMENT_STAGES,
  type TradeRequirementKind,
  type TradeRequirementStage,
} from '../../lib/shared/trade-requirements.ts';
import { fieldId, nextRequirement } from './form.ts';
import type { SectionProps } from './sections.tsx';
import { FieldError, Hint, Section, useEditor } from './ui.tsx';

// What happens once someone starts a trade on the offer (spec sections 3 and 4): gold terms the
// partner accepts before starting, the buyers' warning a sell offer may skip, and the proofs the
// partner uploads in the trade (src/lib/shared/trade-requirements.ts). Each control says in one
// line what it does.

/** One yes/no of the offer with its one-line explanation and its message. */
function FlagCheckbox({
  field,
  checked,
  label,
  hint,
  error,
  onChange,
}: {
  field: string;
  checked: boolean;
  label: string;
  hint: string;
  error: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  const id = fieldId(field);
  return (
    <div className="flag-field">
      <label className="checkbox">
        <input
          type="checkbox"
          id={id}
          data-field={field}
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint ${id}-error`}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span>{label}</span>
      </label>
      <Hint field={field}>{hint}</Hint>
      <FieldError field={field} error={error} />
    </div>
  );
}

/** One proof: what to upload, by when, whether it may be left out, and its remove button. */
function ProofRow({
  item,
  index: i,
  err,
  onChange,
  onRemove,
}: {
  item: OfferTradeRequirement;
  index: number;
  err: SectionProps['err'];
  onChange: (patch: Partial<OfferTradeRequirement>) => void;
  onRemove: () => void;
}) {
  const { t } = useEditor();
  const base = `trade_requirements.${i}`;
  const n = i + 1;
  const error = err(`${base}.kind`) ?? err(`${base}.stage`) ?? err(base);
  return (
    <li className="proof-row" data-proof={i}>
      <label className="visually-hidden" htmlFor={fieldId(`${base}.kind`)}>
        {t('offerEditor.proofs.kind', { n })}
      </label>
      <select
        id={fieldId(`${base}.kind`)}
        data-field={`${base}.kind`}
        className="input proof-kind"
        value={item.kind}
        aria-describedby={`${fieldId(base)}-error`}
        onChange={(e) => onChange({ kind: e.target.value as TradeRequirementKind })}
      >
        {TRADE_REQUIREMENT_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {t(`trade.requirement.kind.${kind}`)}
          </option>
        ))}
      </select>
      <label className="visually-hidden" htmlFor={fieldId(`${base}.stage`)}>
        {t('offerEditor.proofs.stage', { n })}
      </label>
      <select
        id={fieldId(`${base}.stage`)}
        data-field={`${base}.stage`}
        className="input proof-stage"
        value={item.stage}
        onChange={(e) => onChange({ stage: e.target.value as TradeRequirementStage })}
      >
        {TRADE_REQUIREMENT_STAGES.map((stage) => (
          <option key={stage} value={stage}>
            {t(`offerEditor.proofs.${stage}`)}
          </option>
        ))}
      </select>
      <label className="checkbox proof-optional">
        <input type="checkbox" checked={item.optional} onChange={(e) => onChange({ optional: e.target.checked })} />
        <span>
          {t('trade.requirement.optional')}
          <span className="visually-hidden"> {t('offerEditor.proofs.kind', { n })}</span>
        </span>
      </label>
      <button type="button" className="btn btn-ghost" onClick={onRemove}>
        {t('offerEditor.predefined.remove')}
        <span className="visually-hidden"> {t('offerEditor.proofs.kind', { n })}</span>
      </button>
      <FieldError field={base} error={error} />
    </li>
  );
}

/** The proofs the partner uploads during the trade, at most MAX_TRADE_REQUIREMENTS. */
function ProofList({ form, set, err }: SectionProps) {
  const { t } = useEditor();
  const list = form.requirements;
  const field = fieldId('trade_requirements');
  const change = (i: number, patch: Partial<OfferTradeRequirement>) =>
    set({ requirements: list.map((item, j) => (j === i ? { ...item, ...patch } : item)) });
  return (
    <fieldset className="fieldset proof-field">
      <legend className="field-label">{t('offerEditor.proofs.label')}</legend>
      <Hint field="trade_requirements">{t('offerEditor.proofs.hint', { max: MAX_TRADE_REQUIREMENTS })}</Hint>
      {list.length > 0 && (
        <ul className="proof-list">
          {list.map((item, i) => (
            <ProofRow
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions; the API names them by index
              key={i}
              item={item}
              index={i}
              err={err}
              onChange={(patch) => change(i, patch)}
              onRemove={() => set({ requirements: list.filter((_, j) => j !== i) })}
            />
          ))}
        </ul>
      )}
      <div>
        <button
          type="button"
          id={field}
          data-field="trade_requirements"
          className="btn btn-secondary"
          aria-describedby={`${field}-hint ${field}-error`}
          disabled={list.length >= MAX_TRADE_REQUIREMENTS}
          onClick={() => set({ requirements: [...list, nextRequirement(list)] })}
        >
          {t('offerEditor.proofs.add')}
        </button>
      </div>
      <FieldError field="trade_requirements" error={err('trade_requirements')} />
    </fieldset>
  );
}

export function TradeRulesSection(props: SectionProps) {
  const { form, set, err } = props;
  const { t } = useEditor();
  return (
    <Section id="offer-trade-rules" title={t('offerEditor.section.tradeRules')}>
      <div className="checkbox-list">
        <FlagCheckbox
          field="is_gold"
          checked={form.isGold}
          label={t('offerEditor.gold.label')}
          hint={t('offerEditor.gold.hint')}
          error={err('is_gold')}
          onChange={(isGold) => set({ isGold })}
        />
        {form.type === 'sell' && (
          <FlagCheckbox
            field="is_skip_warnings"
            checked={form.isSkipWarnings}
            label={t('offerEditor.skipWarnings.label')}
            hint={t('offerEditor.skipWarnings.hint')}
            error={err('is_skip_warnings')}
            onChange={(isSkipWarnings) => set({ isSkipWarnings })}
          />
        )}
      </div>
      <ProofList {...props} />
    </Section>
  );
}
