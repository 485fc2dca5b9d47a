import { type FocusEvent, type SubmitEvent, useState } from 'react';
import { type ApiError, apiRequest, NETWORK_ERROR_CODE } from '../../lib/api-client.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { CASH_IN_PERSON_GROUP } from '../../lib/shared/offer-rules.ts';
import {
  AFFECTED_FIELDS,
  checkOfferForm,
  compact,
  fieldId,
  fieldRank,
  newOfferForm,
  type OfferForm,
  offerForm,
  requestBody,
} from './form.ts';
import type { OfferEditorProps } from './OfferEditor.tsx';
import { localized } from './ui.tsx';

// The offer form's state: the values, what the browser and the server say about them, which
// fields were visited, and the submit that checks, sends and lands the server's answer.

type T = ReturnType<typeof islandTranslator>;

/** The offer's currency, its decimals and whether its method is cash in person. */
function formContext(props: OfferEditorProps, form: OfferForm) {
  const currency = props.currencies.find((c) => c.code === form.currency);
  const method = props.methods.find((m) => m.slug === form.paymentMethod);
  const group = method ? props.groups.find((g) => g.id === method.groupId) : undefined;
  return { currency, decimals: currency?.minorUnits ?? 2, group, isCashInPerson: group?.slug === CASH_IN_PERSON_GROUP };
}

/** Focuses the first of the fields in the form's order. */
function focusFirst(fields: string[]) {
  const first = [...fields].sort((a, b) => fieldRank(a) - fieldRank(b))[0];
  // After React has painted the messages, so the control's description is current when read.
  if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
}

/** The server's messages by field, and the first one that names no field. */
function serverMessages(errors: readonly ApiError[]) {
  const fields: Record<string, string> = {};
  let other: string | undefined;
  for (const error of errors) {
    const details = error.details?.length ? error.details : [{ field: error.field ?? '', message: error.message }];
    for (const detail of details) {
      if (detail.field) fields[detail.field] ??= detail.message;
      else other ??= detail.message;
    }
  }
  return { fields, other };
}

/** Which fields the vendor has visited. */
function useTouched() {
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  // Fields report themselves through data-field (controlAria); leaving one for another text field
  // marks it visited. Not when focus goes to a button, checkbox or radio: a message appearing
  // between press and release moves the layout, and the click would land beside its target.
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const field = (event.target as HTMLElement).dataset.field?.split('.')[0];
    const next = event.relatedTarget as HTMLElement | null;
    const typing = next?.matches('input:not([type="checkbox"]):not([type="radio"]), select, textarea') ?? false;
    if (field && typing && !touched.has(field)) setTouched(new Set([...touched, field]));
  };
  return { touched, onBlur };
}

/** The values, and the messages the server gave until the vendor edits their field. */
function useFormValues(props: OfferEditorProps) {
  const [form, setForm] = useState<OfferForm>(() =>
    props.offer ? offerForm(props.offer) : newOfferForm(props.defaultCurrency),
  );
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const set = (patch: Partial<OfferForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    // An edit settles what the server said about that field; its other answers stay in view.
    const settled = new Set(Object.keys(patch).flatMap((key) => AFFECTED_FIELDS[key as keyof OfferForm]));
    const kept = Object.entries(serverErrors).filter(([field]) => !settled.has(field.split('.')[0] ?? field));
    if (kept.length < Object.keys(serverErrors).length) setServerErrors(Object.fromEntries(kept));
  };
  return { form, setForm, set, serverErrors, setServerErrors };
}

export function useOfferEditor(props: OfferEditorProps, t: T) {
  const { offer, locale } = props;
  const { form, setForm, set, serverErrors, setServerErrors } = useFormValues(props);
  const { touched, onBlur } = useTouched();
  const [submitted, setSubmitted] = useState(false);
  const [summary, setSummary] = useState<string>();
  const [busy, setBusy] = useState(false);
  const context = formContext(props, form);
  const { decimals, isCashInPerson } = context;

  const issues = checkOfferForm(form, { decimals, isCashInPerson });
  const local: Record<string, string> = {};
  for (const issue of issues) local[issue.field] ??= t(`errors.${issue.key}`, issue.params);
  /** The server's word on a field until the vendor edits it; the browser's own checks after a visit. */
  const err = (field: string) =>
    serverErrors[field] ?? (submitted || touched.has(field.split('.')[0] ?? field) ? local[field] : undefined);

  /** The server's refusal: its messages at their fields, the rest in the summary. */
  const refused = (errors: readonly ApiError[]) => {
    if (errors.some((e) => e.code === NETWORK_ERROR_CODE)) {
      setSummary(t('offerEditor.networkError'));
      return;
    }
    const { fields, other } = serverMessages(errors);
    setServerErrors(fields);
    const named = Object.keys(fields);
    setSummary(other ?? (named.length > 0 ? t('offerEditor.fixFields') : t('offerEditor.genericError')));
    focusFirst(named);
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const sent = compact(form);
    setForm(sent);
    setSubmitted(true);
    setSummary(undefined);
    setServerErrors({});
    const found = checkOfferForm(sent, { decimals, isCashInPerson });
    if (found.length > 0) {
      setSummary(t('offerEditor.fixFields'));
      focusFirst(found.map((i) => i.field));
      return;
    }
    setBusy(true);
    const path = offer ? `/rest/v1/offers/${offer.hash}` : '/rest/v1/offers';
    const result = await apiRequest<{ hash: string }>(
      offer ? 'PUT' : 'POST',
      localized(path, locale),
      requestBody(sent, isCashInPerson),
    );
    if (result.ok) {
      location.assign(`${props.doneUrl}?done=${offer ? 'updated' : 'created'}`);
      return;
    }
    setBusy(false);
    refused(result.errors);
  };

  return { ...context, form, set, err, onBlur, submit, summary, busy };
}
