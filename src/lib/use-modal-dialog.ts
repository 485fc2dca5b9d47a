import { useEffect, useRef } from 'react';

// A native <dialog> opened as a modal while its component is mounted: the browser then traps
// focus, makes the page behind inert and closes on Escape (the `cancel` event).
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return dialog;
}
