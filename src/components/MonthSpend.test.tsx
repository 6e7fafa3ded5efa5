// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { month } from '../test/spend-fixtures';
import { budgetSentence, burnPoints, MonthSpend } from './MonthSpend';

describe('the month’s spend', () => {
  it('draws the running total to the latest day, then the forecast’s three lines to month end, and the budget', () => {
    const m = month({ budget: { budget: 3000, state: 'at-risk', crossing: '2026-05-31', crossingForecast: true } });
    const p = burnPoints(m);
    expect(p).toHaveLength(31);
    expect(p[0]).toEqual({ date: '2026-05-01', spent: 100, low: 100, high: 100, budget: 3000 });
    expect(p[27]).toMatchObject({ date: '2026-05-28', spent: 2800, low: 2800, high: 2800 });
    // 3 days left: 100, 90 and 120 a day.
    expect(p[28]!.spent).toBeCloseTo(2900, 9);
    expect(p[30]).toMatchObject({ date: '2026-05-31', budget: 3000 });
    expect(p[30]!.spent).toBeCloseTo(3100, 9);
    expect(p[30]!.low).toBeCloseTo(3070, 9);
    expect(p[30]!.high).toBeCloseTo(3160, 9);
    // Without a forecast nothing is drawn past the latest day.
    expect(burnPoints(month({ forecast: null })).at(-1)!.date).toBe('2026-05-28');
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
