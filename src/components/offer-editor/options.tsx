import type { ChangeEvent } from 'react';
import { controlAria } from './ui.tsx';

// The parts the currency, method and country pickers share: the search box, the line that says
// what is picked, and the list of matches as native radios or checkboxes.

/** The picker's search box, described by its hint and its error. */
export function SearchBox({
  field,
  error,
  value,
  placeholder,
  onChange,
}: {
  field: string;
  error: string | undefined;
  value: string;
  placeholder: string;
  onChange: (query: string) => void;
}) {
  return (
    <input
      {...controlAria(field, error, true)}
      className="input"
      type="search"
      value={value}
      placeholder={placeholder}
      autoComplete="off"
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** What is picked (bold, then a second word), or the text saying nothing is. */
export function Picked({
  id,
  picked,
  none,
}: {
  id: string;
  picked: [string, string | undefined] | undefined;
  none: string;
}) {
  return (
    <p className="picked" id={`${id}-hint`}>
      {picked ? (
        <>
          <strong>{picked[0]}</strong> · {picked[1]}
        </>
      ) : (
        none
      )}
    </p>
  );
}

export interface PickerOption {
  value: string;
  main: string;
  /** The second line; null leaves it out. */
  sub: string | undefined | null;
  checked: boolean;
}

/** The matches as one radio or checkbox each, or a line saying there are none. */
export function OptionList({
  className,
  empty,
  type,
  name,
  options,
  onPick,
  ...attrs
}: {
  className: string;
  empty: string;
  type: 'radio' | 'checkbox';
  name?: string;
  options: readonly PickerOption[];
  onPick: (value: string, checked: boolean) => void;
  id?: string;
  role?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}) {
  return (
    <fieldset className={className} {...attrs}>
      {options.length === 0 && <p className="muted empty">{empty}</p>}
      {options.map((option) => (
        <label key={option.value} className="option">
          <input
            type={type}
            name={name}
            value={option.value}
            checked={option.checked}
            onChange={(e: ChangeEvent<HTMLInputElement>) => onPick(option.value, e.target.checked)}
          />
          <span className="option-main">{option.main}</span>
          {option.sub !== null && <span className="option-sub">{option.sub}</span>}
        </label>
      ))}
    </fieldset>
  );
}
