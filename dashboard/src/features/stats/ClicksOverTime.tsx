import { BarChart, type Bar } from '../../components/BarChart';
import { useI18n } from '../../i18n/I18nProvider';

/** The total of a period's clicks, said to screen readers as it changes, and their chart (or that there are none). */
export function ClicksOverTime({
  title,
  bars,
  total,
}: {
  title: string;
  bars: readonly Bar[];
  total: number;
}) {
  const { t, number } = useI18n();
  return (
    <>
      <p className="total" aria-live="polite">
        {t.stats.total(total, number(total))}
      </p>
      {bars.length === 0 ? (
        <p className="empty">{t.stats.noClicks}</p>
      ) : (
        <BarChart
          title={title}
          bars={bars}
          labelHeading={t.stats.when}
          valueHeading={t.stats.clicks}
          showTable={t.stats.showTable}
          formatNumber={number}
        />
      )}
    </>
  );
}
