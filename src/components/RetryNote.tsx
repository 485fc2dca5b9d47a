// A load that failed, said in one line with a "retry" link-styled button after it (the
// calculator's chart and offers, the offers listing).

export function RetryNote({
  className,
  role,
  message,
  retry,
  onRetry,
}: {
  className: string;
  role: 'alert' | 'status';
  message: string;
  retry: string;
  onRetry(): void;
}) {
  return (
    <p className={className} role={role}>
      {message}{' '}
      <button type="button" className="text-link" onClick={onRetry}>
        {retry}
      </button>
    </p>
  );
}
