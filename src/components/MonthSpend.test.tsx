// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { month } from '../test/spend-fixtures';
import BurnChart from './BurnChart';
import { burnPoints } from './burn-points';
import { budgetSentence, MonthSpend } from './MonthSpend';

describe('the month’s spend', () => {
  it('draws the running total to the latest day, then the forecast’s middle and its range to month end, joined', () => {
    const p = burnPoints(month());
    expect(p).toHaveLength(31);
    expect(p[0]).toEqual({ date: '2026-05-01', spent: 100 });
    expect(p[26]).toEqual({ date: '2026-05-27', spent: 2700 });
    // The latest day starts the forecast and its range from what was spent.
    expect(p[27]).toEqual({ date: '2026-05-28', spent: 2800, forecast: 2800, range: [2800, 2800] });
    // 3 days left: 100 a day in the middle, 90 and 120 at the range's ends.
    expect(p[28]!.spent).toBeUndefined();
    expect(p[28]!.forecast).toBeCloseTo(2900, 9);
    expect(p[30]!.date).toBe('2026-05-31');
    expect(p[30]!.forecast).toBeCloseTo(3100, 9);
    expect(p[30]!.range![0]).toBeCloseTo(3070, 9);
    expect(p[30]!.range![1]).toBeCloseTo(3160, 9);
    // Without a forecast nothing is drawn past the latest day.
    const none = burnPoints(month({ forecast: null }));
    expect(none.at(-1)).toEqual({ date: '2026-05-28', spent: 2800 });
  });

  it('draws the forecast’s range as a band, the budget as a labelled line, and money on the axis', async () => {
    const m = month({ budget: { budget: 3000, state: 'at-risk', crossing: '2026-05-31', crossingForecast: true } });
    const { container } = render(
      <BurnChart points={burnPoints(m)} currency="EUR" budget={3000} width={640} height={220} />,
    );
    await new Promise((r) => setTimeout(r, 0));
    // One band (the range area: an upper and a lower edge), two lines (spent, the forecast's middle, dashed).
    const band = container.querySelectorAll('.recharts-area-area');
    expect(band).toHaveLength(1);
    expect(band[0]!.getAttribute('d')).toMatch(/^M.*L.*Z$/s);
    const lines = [...container.querySelectorAll('.recharts-line-curve')];
    expect(lines.map((l) => l.getAttribute('stroke-dasharray'))).toEqual(['5 4', null]);
    const ticks = [...container.querySelectorAll('.recharts-yAxis-tick-labels text')].map((t) => t.textContent);
    // One unit on the axis, with one decimal in every tick: never "€500" under "€1K", nor "€3K" beside "€3.5K".
    expect(ticks).toEqual(['€0', '€0.5K', '€1.0K', '€1.5K', '€2.0K', '€2.5K', '€3.0K', '€3.5K']);
    // The budget's line sits at the height of the axis' €3.0K, labelled with the amount.
    const at3k = [...container.querySelectorAll('.recharts-yAxis-tick-labels text')].find(
      (t) => t.textContent === '€3.0K',
    )!;
    const line = container.querySelector('.recharts-reference-line-line')!;
    expect(Number(line.getAttribute('y1'))).toBeCloseTo(Number(at3k.getAttribute('y')), 0);
    expect(within(container).getByText('Budget €3,000')).toBeTruthy();
  });

  it('shows the month to date, the forecast as a range with its middle, the budget’s state and how it is made', () => {
    render(
      <MonthSpend
        month={month({ budget: { budget: 3000, state: 'at-risk', crossing: '2026-05-31', crossingForecast: true } })}
        currency="EUR"
        method="How it is made."
      />,
    );
    expect(screen.getByText('€2,800')).toBeTruthy();
    expect(screen.getByText('€3,070 – €3,160')).toBeTruthy();
    expect(screen.getByText('most likely €3,100')).toBeTruthy();
    expect(screen.getByText('At risk')).toBeTruthy();
    expect(screen.getByText('Budget €3,000 a month: the forecast passes it on May 31, 2026.')).toBeTruthy();
    expect(screen.getByText('How it is made. (28 days read.)')).toBeTruthy();
  });

  it('keeps every day in the burn chart when the daily charts hide the days off, and says why', () => {
    const { rerender, unmount } = render(<MonthSpend month={month({})} currency="EUR" method="" />);
    expect(screen.queryByText(/The burn chart keeps every day/)).toBeNull();
    rerender(<MonthSpend month={month({})} currency="EUR" method="" daysOff="Saturdays and Sundays" />);
    expect(
      screen.getByText(
        'The burn chart keeps every day, Saturdays and Sundays included: it is the month’s running total, and its forecast and budget run over calendar days.',
      ),
    ).toBeTruthy();
    // This file renders without the app's helper, which cleans up after each test.
    unmount();
  });

  it('says when there is too little history for a forecast, and when no budget is set', () => {
    render(<MonthSpend month={month({ forecast: null, basisDays: 4 })} currency="USD" method="" />);
    expect(screen.getByText(/Too little history for a forecast: it needs a whole week \(4 days so far\)/)).toBeTruthy();
    expect(screen.getByText('No monthly budget set.')).toBeTruthy();
  });

  it('words each budget state', () => {
    const b = { budget: 500, crossingForecast: true };
    expect(budgetSentence({ ...b, state: 'over', crossing: '2026-05-20', crossingForecast: false }, 'USD')).toBe(
      'Budget $500 a month: passed on May 20, 2026.',
    );
    expect(budgetSentence({ ...b, state: 'at-risk', crossing: null }, 'USD')).toBe(
      'Budget $500 a month: a month like the busiest recent week would pass it.',
    );
    expect(budgetSentence({ ...b, state: 'on-track', crossing: null }, 'USD')).toBe(
      'Budget $500 a month: the forecast stays under it.',
    );
  });
});
