// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Mark } from '../api/marks';
import { marksQuery } from '../data/marks';
import { TEST_CONFIG, captureDownloads, createTestQueryClient, renderWithApp } from '../test/render';
import { placeMarks } from './ChartMarks';
import { IntervalSwitch, TimeSeriesWidget } from './TimeSeriesWidget';

vi.mock('./use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));

// Thursday 2026-05-07 to Tuesday 2026-05-12; Saturday the 9th and Sunday the 10th.
const POINTS = [
  { date: '2026-05-07', sessions: 1 },
  { date: '2026-05-08', sessions: 2 },
  { date: '2026-05-09', sessions: 3 },
  { date: '2026-05-10', sessions: 4 },
  { date: '2026-05-11', sessions: 5 },
  { date: '2026-05-12', sessions: 6 },
];
const RANGE = { start: '2026-05-07', end: '2026-05-12' };

const mark = (day: string, text: string, team = '', source: Mark['source'] = 'user'): Mark => ({
  id: `${day}-${text}`,
  day,
  team,
  text,
  source,
  author: null,
  updatedAt: null,
  editable: source === 'user',
});
const MARKS = [
  mark('2026-05-08', 'Rollout to everyone'),
  mark('2026-05-09', 'Training on a Saturday', 'Engineering'),
  mark('2026-05-12', 'Price change: the default price is 6 EUR per million credits (was 8 EUR).', '', 'prices'),
];

function renderWithMarks(url: string, teams: readonly string[] = [], stored = true) {
  const client = createTestQueryClient();
  client.setQueryData(marksQuery(RANGE, teams).queryKey, { marks: MARKS });
  return renderWithApp(
    <>
      <IntervalSwitch />
      <TimeSeriesWidget
        title="Sessions"
        query={{ data: POINTS }}
        series={[{ key: 'sessions', label: 'Sessions', color: 'var(--chart-1)' }]}
        filename="sessions"
        what="Sessions"
        marksOf={teams}
      />
    </>,
    { url, client, config: { ...TEST_CONFIG, teams: stored } },
  );
}

const URL_RANGE = '/?start=2026-05-07&end=2026-05-12';

describe('marks on a daily chart', () => {
  it('are numbered buttons named by their day, scope and text, which show the text on focus', () => {
    renderWithMarks(URL_RANGE);
    const figure = screen.getByRole('figure', { name: /^Sessions, per day/ });
    const buttons = within(figure).getAllByRole('button');
    expect(buttons.map((b) => [b.textContent, b.getAttribute('aria-label')])).toEqual([
      ['1', 'Mark 1, May 8, 2026, organization: Rollout to everyone'],
      ['2', 'Mark 2, May 9, 2026, Engineering: Training on a Saturday'],
      [
        '3',
        'Mark 3, May 12, 2026, organization: Price change: the default price is 6 EUR per million credits (was 8 EUR).',
      ],
    ]);
    expect(screen.queryByText('Rollout to everyone')).toBeNull();
    fireEvent.focus(buttons[0]!);
    expect(screen.getByText('Rollout to everyone')).toBeTruthy();
    expect(buttons[0]!.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(buttons[0]!, { key: 'Escape' });
    expect(screen.queryByText('Rollout to everyone')).toBeNull();
    fireEvent.mouseEnter(buttons[1]!);
    expect(screen.getByText('Training on a Saturday')).toBeTruthy();
    // Each stands on its day's point: a line at its x.
    expect(figure.querySelectorAll('[data-mark-line]')).toHaveLength(3);
  });

  it('are listed under the table view, and in the CSV on their day’s row', async () => {
    const downloads = captureDownloads();
    renderWithMarks(URL_RANGE);
    fireEvent.click(screen.getByRole('button', { name: 'Show Sessions as a table' }));
    const list = screen.getByRole('table', { name: 'Marks' });
    expect(
      within(list)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual([
      '1May 8, 2026OrganizationRollout to everyone',
      '2May 9, 2026EngineeringTraining on a Saturday',
      '3May 12, 2026OrganizationPrice change: the default price is 6 EUR per million credits (was 8 EUR). (from the price list)',
    ]);
    expect(screen.getByRole('link', { name: 'Add a mark' }).getAttribute('href')).toMatch(/^\/settings\/marks\?/);
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Sessions' }));
    expect((await downloads.text()).split('\r\n')).toEqual([
      'date,sessions,marks',
      '2026-05-07,1,',
      '2026-05-08,2,2026-05-08 organization: Rollout to everyone',
      '2026-05-09,3,2026-05-09 Engineering: Training on a Saturday',
      '2026-05-10,4,',
      '2026-05-11,5,',
      '2026-05-12,6,2026-05-12 organization: Price change: the default price is 6 EUR per million credits (was 8 EUR).',
      '',
    ]);
  });

  it('fall in their week on a weekly chart, and on the next day shown when their day is left out', async () => {
    const downloads = captureDownloads();
    renderWithMarks(`${URL_RANGE}&interval=week`);
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Sessions' }));
    expect((await downloads.text()).split('\r\n')).toEqual([
      'week_start,days,partial_week,sessions,marks',
      // Quoted: a `;` separates cells in some spreadsheets' CSV.
      '2026-05-04,4,true,10,"2026-05-08 organization: Rollout to everyone; 2026-05-09 Engineering: Training on a Saturday"',
      '2026-05-11,2,true,11,2026-05-12 organization: Price change: the default price is 6 EUR per million credits (was 8 EUR).',
      '',
    ]);

    const daily = placeMarks(MARKS, [{ date: '2026-05-08' }, { date: '2026-05-11' }, { date: '2026-05-12' }], false);
    expect(daily.map((p) => [p.n, p.mark.day, p.x])).toEqual([
      [1, '2026-05-08', '2026-05-08'],
      [2, '2026-05-09', '2026-05-11'],
      [3, '2026-05-12', '2026-05-12'],
    ]);
    // A mark of another range (still shown while the new one loads) is not drawn on this one.
    expect(placeMarks([mark('2026-03-01', 'Long ago')], [{ date: '2026-05-08' }], false)).toEqual([]);
  });

  it('are those of the teams the chart is for (a team page’s own team), not the URL’s', () => {
    renderWithMarks(URL_RANGE, ['Engineering/Platform']);
    expect(within(screen.getByRole('figure')).getAllByRole('button')).toHaveLength(3);
  });

  it('are not drawn without a store', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithMarks(URL_RANGE, [], false);
    expect(within(screen.getByRole('figure')).queryAllByRole('button')).toHaveLength(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
