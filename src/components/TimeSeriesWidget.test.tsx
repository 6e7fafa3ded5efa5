// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TEST_CONFIG, captureDownloads, renderWithApp } from '../test/render';
import { IntervalSwitch, TimeSeriesWidget } from './TimeSeriesWidget';

// Charts are drawn at a fixed width (jsdom lays nothing out), so their axes and shading can be read.
vi.mock('./use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));

// Thursday 2026-05-07 to Tuesday 2026-05-12: two ISO weeks (Mon 4 May, Mon 11 May).
const POINTS = [
  { date: '2026-05-07', sessions: 1234, messages: 10 },
  { date: '2026-05-08', sessions: 6, messages: 20 },
  { date: '2026-05-09', sessions: 0, messages: 30 },
  { date: '2026-05-10', sessions: 10, messages: 40 },
  { date: '2026-05-11', sessions: 2000, messages: 50 },
  { date: '2026-05-12', sessions: 500.5, messages: 60 },
];

const SERIES = [
  { key: 'sessions', label: 'Sessions', color: 'var(--chart-1)' },
  { key: 'messages', label: 'Messages', color: 'var(--chart-2)', csv: 'message_count' },
];

function renderSeries(url = '/', percent = false, holidays: string[] = []) {
  return renderWithApp(
    <>
      <IntervalSwitch />
      <TimeSeriesWidget
        title="Sessions and messages"
        query={{ data: POINTS }}
        series={SERIES}
        filename="activity"
        what="Sessions and messages"
        percent={percent}
      />
    </>,
    { url, config: { ...TEST_CONFIG, holidays } },
  );
}

const tableButton = () => screen.getByRole('button', { name: 'Show Sessions and messages as a table' });

/** Each body row as [row header, ...cells]. */
function tableRows(t: HTMLElement): string[][] {
  return within(t)
    .getAllByRole('row')
    .slice(1)
    .map((r) => [within(r).getByRole('rowheader'), ...within(r).getAllByRole('cell')].map((c) => c.textContent ?? ''));
}

describe('TimeSeriesWidget', () => {
  it('shows a chart described in words, and the same points as a table on demand', () => {
    renderSeries();
    expect(
      screen.getByRole('figure', { name: 'Sessions and messages, per day, from 2026-05-07 to 2026-05-12.' }),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(tableButton().getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(tableButton());
    expect(tableButton().getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('figure')).toBeNull();
    const t = screen.getByRole('table', { name: 'Sessions and messages, per day' });
    expect(
      within(t)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Day (UTC)', 'Sessions', 'Messages']);
    expect(tableRows(t)).toEqual([
      ['May 7, 2026', '1,234', '10'],
      ['May 8, 2026', '6', '20'],
      ['May 9, 2026', '0', '30'],
      ['May 10, 2026', '10', '40'],
      ['May 11, 2026', '2,000', '50'],
      ['May 12, 2026', '500.5', '60'],
    ]);

    fireEvent.click(tableButton());
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('figure')).toBeTruthy();
  });

  it('downloads a CSV of the same points the table shows, with the CSV names of the series', async () => {
    const downloads = captureDownloads();
    renderSeries();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Sessions and messages' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['activity.csv']);
    const csv = await downloads.text();
    expect(csv.split('\r\n')).toEqual([
      'date,sessions,message_count',
      '2026-05-07,1234,10',
      '2026-05-08,6,20',
      '2026-05-09,0,30',
      '2026-05-10,10,40',
      '2026-05-11,2000,50',
      '2026-05-12,500.5,60',
      '',
    ]);
  });

  it('rolls up to ISO weeks when the interval switch says so, in the URL, table and CSV alike', async () => {
    const downloads = captureDownloads();
    const r = renderSeries('/?start=2026-05-07&end=2026-05-12');
    const weekly = within(screen.getByRole('group', { name: 'Chart interval' })).getByRole('button', {
      name: 'Weekly',
    });
    fireEvent.click(weekly);
    expect(r.params().get('interval')).toBe('week');
    expect(r.params().get('start')).toBe('2026-05-07');
    expect(weekly.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(tableButton());
    const t = screen.getByRole('table', { name: 'Sessions and messages, per week' });
    expect(within(t).getAllByRole('columnheader')[0]!.textContent).toBe('Week of');
    // Both weeks are partial (Thursday to Sunday, Monday and Tuesday): the table says how much of each it holds.
    expect(tableRows(t)).toEqual([
      ['May 4, 2026 (partial: 4 of 7 days)', '1,250', '100'],
      ['May 11, 2026 (partial: 2 of 7 days)', '2,500.5', '110'],
    ]);
    expect(
      screen.getByText(/^\* Partial weeks, shaded: Wk May 4 holds 4 of 7 days, Wk May 11 holds 2 of 7 days/),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Sessions and messages' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['activity-weekly.csv']);
    expect((await downloads.text()).split('\r\n')).toEqual([
      'week_start,days,partial_week,sessions,message_count',
      '2026-05-04,4,true,1250,100',
      '2026-05-11,2,true,2500.5,110',
      '',
    ]);

    // Back to days: the parameter leaves the URL (its default).
    fireEvent.click(screen.getByRole('button', { name: 'Daily' }));
    expect(r.params().has('interval')).toBe(false);
    expect(screen.getByRole('table', { name: 'Sessions and messages, per day' })).toBeTruthy();
  });

  it('titles the chart for its grain, and marks and shades only the partial weeks of a weekly chart', () => {
    // Thursday 2026-05-07 to Monday 2026-05-18: a partial week (4 days), a whole one, a partial one (1 day).
    const days = Array.from({ length: 12 }, (_, i) => ({
      date: `2026-05-${String(7 + i).padStart(2, '0')}`,
      sessions: 10,
      messages: 1,
    }));
    const { container } = renderWithApp(
      <>
        <IntervalSwitch />
        <TimeSeriesWidget title="Sessions" query={{ data: days }} series={SERIES} filename="s" what="Sessions" />
      </>,
      { url: '/?interval=week' },
    );
    const heading = () => within(screen.getByRole('region', { name: 'Sessions' })).getByRole('heading').textContent;
    expect(heading()).toBe('Sessions per week');
    expect(screen.getByRole('figure', { name: 'Sessions, per week, from 2026-05-04 to 2026-05-18.' })).toBeTruthy();
    // The first and last weeks are shaded, the whole week between them is not.
    const shaded = [...container.querySelectorAll('[data-shade]')].map((e) => e.getAttribute('data-shade'));
    expect(shaded).toEqual(['2026-05-04', '2026-05-18']);
    expect(container.querySelector('[data-shade]')!.textContent).toBe('partial');
    // The axis marks them too.
    const ticks = [...container.querySelectorAll('.chart-x-axis text')].map((e) => e.textContent);
    expect(ticks).toEqual(['Wk May 4*', 'Wk May 11', 'Wk May 18*']);
    expect(
      screen.getByText(
        "* Partial weeks, shaded: Wk May 4 holds 4 of 7 days, Wk May 18 holds 1 of 7 days of the range, so their figures are not comparable with a whole week's.",
      ),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Daily' }));
    expect(heading()).toBe('Sessions per day');
    expect(container.querySelector('[data-shade]')).toBeNull();
    expect(screen.queryByText(/Partial week/)).toBeNull();
  });

  it('titles a figure of a day (its weeks the mean of their days) as such, without repeating a title’s "Daily"', () => {
    const days = Array.from({ length: 14 }, (_, i) => ({ date: `2026-05-${String(4 + i).padStart(2, '0')}`, dau: 10 }));
    const dau = [{ key: 'dau', label: 'Active people', color: '#000' }] as const;
    renderWithApp(
      <>
        <IntervalSwitch />
        <TimeSeriesWidget
          title="Daily active people"
          query={{ data: days }}
          series={dau}
          rollup={{ dau: 'mean' }}
          filename="dau"
          what="Daily active people"
        />
      </>,
      { url: '/?interval=week' },
    );
    const heading = () =>
      within(screen.getByRole('region', { name: 'Daily active people' })).getByRole('heading').textContent;
    expect(heading()).toBe('Daily active people (weekly average of days)');
    fireEvent.click(screen.getByRole('button', { name: 'Daily' }));
    expect(heading()).toBe('Daily active people');
  });

  it('leaves Saturdays and Sundays out of a daily chart when asked, in the URL, chart, table and CSV, and says so', async () => {
    const downloads = captureDownloads();
    const r = renderSeries('/?start=2026-05-07&end=2026-05-12');
    const hide = screen.getByRole('checkbox', { name: 'Hide weekends' });
    expect((hide as HTMLInputElement).checked).toBe(false);
    fireEvent.click(hide);
    expect(r.params().get('weekends')).toBe('hide');
    expect(
      screen.getByRole('figure', {
        name: 'Sessions and messages, per day, weekdays only, from 2026-05-07 to 2026-05-12.',
      }),
    ).toBeTruthy();
    expect(
      screen.getByText('Saturdays and Sundays (UTC) are left out of this chart; the totals above count every day.'),
    ).toBeTruthy();
    fireEvent.click(tableButton());
    const t = screen.getByRole('table', { name: 'Sessions and messages, per day, weekdays only' });
    expect(tableRows(t).map((row) => row[0])).toEqual(['May 7, 2026', 'May 8, 2026', 'May 11, 2026', 'May 12, 2026']);
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Sessions and messages' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['activity-weekdays.csv']);
    expect((await downloads.text()).split('\r\n')).toEqual([
      'date,sessions,message_count',
      '2026-05-07,1234,10',
      '2026-05-08,6,20',
      '2026-05-11,2000,50',
      '2026-05-12,500.5,60',
      '',
    ]);

    // Weeks count all their days: the weekly view keeps the weekends, and the box cannot be used there.
    fireEvent.click(screen.getByRole('button', { name: 'Weekly' }));
    expect((screen.getByRole('checkbox', { name: 'Hide weekends' }) as HTMLInputElement).disabled).toBe(true);
    expect(tableRows(screen.getByRole('table', { name: 'Sessions and messages, per week' }))[0]![1]).toBe('1,250');

    fireEvent.click(screen.getByRole('button', { name: 'Daily' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Hide weekends' }));
    expect(r.params().has('weekends')).toBe(false);
    expect(tableRows(screen.getByRole('table', { name: 'Sessions and messages, per day' }))).toHaveLength(6);
  });

  it('leaves the organization’s listed holidays out with the weekends, and says so on the box and under the chart', async () => {
    const downloads = captureDownloads();
    // Friday May 8 is a holiday; the other listed day lies outside the chart's days.
    renderSeries('/?start=2026-05-07&end=2026-05-12', false, ['2026-05-08', '2026-12-25']);
    expect(screen.queryByRole('checkbox', { name: 'Hide weekends' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Hide weekends and holidays' }));
    expect(
      screen.getByRole('figure', {
        name: 'Sessions and messages, per day, working days only, from 2026-05-07 to 2026-05-12.',
      }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Saturdays, Sundays and the organization’s listed holidays (UTC) are left out of this chart; the totals above count every day.',
      ),
    ).toBeTruthy();
    fireEvent.click(tableButton());
    const t = screen.getByRole('table', { name: 'Sessions and messages, per day, working days only' });
    expect(tableRows(t).map((row) => row[0])).toEqual(['May 7, 2026', 'May 11, 2026', 'May 12, 2026']);
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Sessions and messages' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['activity-working-days.csv']);
    expect((await downloads.text()).split('\r\n').slice(1, -1)).toEqual([
      '2026-05-07,1234,10',
      '2026-05-11,2000,50',
      '2026-05-12,500.5,60',
    ]);
    // A week counts all its days, holidays too.
    fireEvent.click(screen.getByRole('button', { name: 'Weekly' }));
    expect(tableRows(screen.getByRole('table', { name: 'Sessions and messages, per week' }))[0]![1]).toBe('1,250');
  });

  it('shows shares of each day in a 100 % widget', () => {
    renderSeries('/', true);
    fireEvent.click(tableButton());
    const rows = tableRows(screen.getByRole('table', { name: 'Sessions and messages, per day' }));
    expect(rows[0]).toEqual(['May 7, 2026', '99.2%', '0.8%']);
    expect(rows[2]).toEqual(['May 9, 2026', '0%', '100%']);
  });

  it('shows the empty state, and no table or CSV button, for no points', () => {
    renderWithApp(
      <TimeSeriesWidget title="Nothing" query={{ data: [] }} series={SERIES} filename="x" what="Nothing" />,
    );
    expect(screen.getByText('No data for this range.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /CSV/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show Nothing as a table' }));
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('draws placeholder points with the series they were drawn with, until the new answer brings its own', () => {
    const widget = (data: typeof POINTS, isPlaceholderData: boolean, series: typeof SERIES, what: string) => (
      <TimeSeriesWidget
        title="Sessions and messages"
        query={{ data, isPlaceholderData }}
        series={series}
        filename="activity"
        what={what}
        orgOnly={series.length < 2 ? 'Messages' : undefined}
      />
    );
    const legend = () =>
      within(screen.getByRole('figure'))
        .queryAllByRole('listitem')
        .map((li) => li.textContent);
    const r = renderWithApp(widget(POINTS, false, SERIES, 'Sessions and messages'));
    expect(legend()).toEqual(['Sessions', 'Messages']);
    // A team's URL while the organization's points stand in: drawn as they were, dimmed, without the team's note.
    r.rerender(widget(POINTS, true, SERIES.slice(0, 1), 'Sessions'));
    expect(legend()).toEqual(['Sessions', 'Messages']);
    expect(screen.getByRole('figure', { name: /^Sessions and messages, per day/ })).toBeTruthy();
    expect(screen.getByRole('figure').closest('[aria-busy]')?.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText(/whole organization/)).toBeNull();
    // The team's answer: its points, its series and its note.
    const team = POINTS.map((p) => ({ ...p, sessions: p.sessions + 1 }));
    r.rerender(widget(team, false, SERIES.slice(0, 1), 'Sessions'));
    expect(legend()).toEqual([]);
    expect(screen.getByRole('figure', { name: 'Sessions, per day, from 2026-05-07 to 2026-05-12.' })).toBeTruthy();
    expect(screen.getByRole('figure').closest('[aria-busy]')?.getAttribute('aria-busy')).toBe('false');
    expect(screen.getByText(/whole organization/)).toBeTruthy();
  });
});

describe('TimeSeriesWidget with nothing to draw', () => {
  it('says so in a sentence, not with an empty chart from 0 to 1; the table and CSV still hold the days', () => {
    const zero = POINTS.map((p) => ({ ...p, sessions: 0, messages: 0 }));
    renderWithApp(
      <TimeSeriesWidget
        title="Sessions and messages"
        query={{ data: zero }}
        series={SERIES}
        filename="activity"
        what="Sessions and messages"
      />,
    );
    expect(screen.queryByRole('figure')).toBeNull();
    expect(screen.getByText('Nothing in this range: every day is 0.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV of Sessions and messages' })).toBeTruthy();
    fireEvent.click(tableButton());
    expect(tableRows(screen.getByRole('table'))).toHaveLength(POINTS.length);
  });

  it('says a ratio with nothing to divide has no value, rather than drawing it as 0', () => {
    const none = POINTS.map((p) => ({ date: p.date, sessions: null, messages: null }));
    renderWithApp(
      <TimeSeriesWidget
        title="Sessions and messages"
        query={{ data: none }}
        series={SERIES}
        filename="activity"
        what="Sessions and messages"
      />,
    );
    expect(screen.queryByRole('figure')).toBeNull();
    expect(screen.getByText('Nothing in this range: no day has a value.')).toBeTruthy();
    fireEvent.click(tableButton());
    expect(tableRows(screen.getByRole('table'))[0]).toEqual(['May 7, 2026', 'none', 'none']);
  });
});
