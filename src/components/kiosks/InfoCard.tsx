import type { T } from './types.ts';

// For a signed-in person who is not a kiosk: what a kiosk account is, how a sale at the counter
// goes, and how to get one (operators grant it to businesses, so the way in is support).

export function InfoCard({ t, supportLink }: { t: T; supportLink: string }) {
  return (
    <section className="card kiosk-card kiosk-info" aria-labelledby="kiosk-info-title" data-testid="kiosk-invitation">
      <h2 className="h3" id="kiosk-info-title">
        {t('kiosk.info.title')}
      </h2>
      <p>{t('kiosk.info.lead')}</p>
      <ol className="kiosk-steps">
        <li>{t('kiosk.info.step1')}</li>
        <li>{t('kiosk.info.step2')}</li>
        <li>{t('kiosk.info.step3')}</li>
      </ol>
      <p className="muted">{t('kiosk.info.how')}</p>
      <p>
        <a className="btn btn-primary" href={supportLink}>
          {t('kiosk.info.contact')}
        </a>
      </p>
    </section>
  );
}
