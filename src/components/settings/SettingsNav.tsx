import { useEffect, useRef, useState } from 'react';
import { useSettings } from './context.ts';
import '../../styles/section-nav.css';

// The section list: a column on wide screens, a row that scrolls sideways on phones. The section
// being read is marked (aria-current) as the page scrolls, and its link kept in view.

export const SECTIONS = [
  ['profile', 'settings.nav.profile'],
  ['phone', 'settings.nav.phone'],
  ['telegram', 'settings.nav.telegram'],
  ['password', 'settings.nav.password'],
  ['two-factor', 'settings.nav.twoFactor'],
  ['devices', 'settings.nav.devices'],
  ['api-keys', 'settings.nav.apiKeys'],
  ['export', 'settings.nav.export'],
  ['cookies', 'settings.nav.cookies'],
] as const;

export function SettingsNav() {
  const { t } = useSettings();
  const [active, setActive] = useState<string>(SECTIONS[0][0]);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      // The last section whose top has passed a line a little below the fixed header.
      const line = window.innerHeight * 0.3;
      let current: string = SECTIONS[0][0];
      for (const [id] of SECTIONS) {
        const top = document.getElementById(id)?.getBoundingClientRect().top;
        if (top !== undefined && top <= line) current = id;
      }
      // At the very bottom the last sections cannot scroll up to the line: the last one counts.
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) {
        current = SECTIONS.at(-1)?.[0] ?? current;
      }
      setActive(current);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, []);

  // On phones the row scrolls by itself so the marked link stays visible.
  useEffect(() => {
    const link = list.current?.querySelector<HTMLElement>(`a[href="#${active}"]`);
    const row = list.current;
    if (!link || !row || row.scrollWidth <= row.clientWidth) return;
    const linkBox = link.getBoundingClientRect();
    const rowBox = row.getBoundingClientRect();
    if (linkBox.left < rowBox.left || linkBox.right > rowBox.right) {
      row.scrollBy({ left: linkBox.left - rowBox.left - 16, behavior: 'smooth' });
    }
  }, [active]);

  return (
    <nav className="settings-nav section-nav" aria-label={t('settings.nav.label')}>
      <ul ref={list}>
        {SECTIONS.map(([id, key]) => (
          <li key={id}>
            <a href={`#${id}`} aria-current={active === id ? 'location' : undefined}>
              {t(key)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
