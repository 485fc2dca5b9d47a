import { useEffect, useRef, useState } from 'react';
import { useSettings } from './context.ts';
import { StatusLine } from './ui.tsx';

// The ten recovery codes, shown once right after two-factor is turned on: copy, download, done.

export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useSettings();
  const [note, setNote] = useState<string>();
  const box = useRef<HTMLElement>(null);
  const text = `${codes.join('\n')}\n`;

  // Shown in place of the form the person just used: read it first.
  useEffect(() => {
    box.current?.focus();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setNote(t('settings.twoFactor.codesCopied'));
    } catch {
      setNote(t('settings.copyFailed'));
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'coinfair-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <section
      className="recovery stack-sm"
      ref={box}
      tabIndex={-1}
      aria-labelledby="recovery-title"
      aria-describedby="recovery-text"
    >
      <h3 className="h3" id="recovery-title">
        {t('settings.twoFactor.codesTitle')}
      </h3>
      <p className="alert alert-info" id="recovery-text">
        {t('settings.twoFactor.codesText')}
      </p>
      <ol className="recovery-codes" data-recovery-codes>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="button-row">
        <button type="button" className="btn btn-secondary" onClick={copy}>
          {t('settings.copy')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={download}>
          {t('settings.download')}
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {t('settings.twoFactor.codesDone')}
        </button>
      </div>
      <StatusLine message={note} />
    </section>
  );
}
