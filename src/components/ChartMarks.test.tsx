// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Mark } from '../api/marks';
import { marksQuery } from '../data/marks';
import { formatDayShort } from '../lib/dates';
import { timeSeriesFrame } from './chart-frame';
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

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('adding a mark from a chart', () => {
  const me = (role: 'admin' | 'manager' | 'viewer', teams: string[] = []) => ({
    email: 'reader@acme.example',
    name: null,
    role,
    teams,
    userId: null,
    orgView: true,
  });
  function renderAs(reader: ReturnType<typeof me> | null, teams: readonly string[] = []) {
    const client = createTestQueryClient();
    client.setQueryData(marksQuery(RANGE, teams).queryKey, { marks: [] });
    if (reader) client.setQueryData(['me'], reader);
    return renderWithApp(
      <TimeSeriesWidget
        title="Sessions"
        query={{ data: POINTS }}
        series={[{ key: 'sessions', label: 'Sessions', color: 'var(--chart-1)' }]}
        filename="sessions"
        what="Sessions"
        marksOf={teams}
      />,
      { url: URL_RANGE, client, config: { ...TEST_CONFIG, teams: true, signIn: reader !== null } },
    );
  }
  const button = () => screen.queryByRole('button', { name: 'Add a mark on Sessions' });

  it('opens the marks screen’s form on the day clicked and the chart’s scope, and says what the server refused', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_: RequestInfo | URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { text: string };
        sent.push(body);
        return body.text === 'x'
          ? json({ title: 'Bad Request', detail: '"day" (2026-05-09) is refused.' }, 400)
          : json({ ...mark('2026-05-09', body.text, 'Engineering/Platform'), id: 'new' }, 201);
      }),
    );
    renderAs(me('manager', ['Engineering/Platform']), ['Engineering/Platform']);
    fireEvent.click(button()!);
    // The form's module loads when first opened (here, transformed first).
    const form = await screen.findByRole('form', { name: 'New mark on Sessions' }, { timeout: 10_000 });
    // The chart's last day, its team.
    expect(within(form).getByLabelText('Day (UTC)')).toHaveProperty('value', '2026-05-12');
    expect(
      within(within(form).getByRole('combobox', { name: 'For' }))
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['Engineering/Platform']);
    // A click on the plot picks the day nearest it.
    const frame = timeSeriesFrame({
      data: POINTS,
      keys: ['sessions'],
      xKey: 'date',
      xFormat: formatDayShort,
      band: false,
      stacked: false,
      fractions: false,
      width: 600,
      height: 280,
    });
    fireEvent.click(screen.getByRole('figure').firstElementChild!, { clientX: frame.x(2) - 5 });
    const picked = await screen.findByRole('form', { name: 'New mark on Sessions' });
    expect(within(picked).getByLabelText('Day (UTC)')).toHaveProperty('value', '2026-05-09');
    expect(within(picked).getByRole('textbox', { name: 'Text' })).toBe(document.activeElement);
    fireEvent.change(within(picked).getByRole('textbox', { name: 'Text' }), { target: { value: 'x' } });
    fireEvent.click(within(picked).getByRole('button', { name: 'Add mark' }));
    expect((await within(picked).findByRole('alert')).textContent).toBe('"day" (2026-05-09) is refused.');
    fireEvent.change(within(picked).getByRole('textbox', { name: 'Text' }), { target: { value: 'Training' } });
    fireEvent.click(within(picked).getByRole('button', { name: 'Add mark' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Added the mark of May 9, 2026 for Engineering/Platform.',
    );
    expect(sent).toEqual([
      { day: '2026-05-09', team: 'Engineering/Platform', text: 'x' },
      { day: '2026-05-09', team: 'Engineering/Platform', text: 'Training' },
    ]);
    expect(screen.queryByRole('form', { name: 'New mark on Sessions' })).toBeNull();
  });

  it('is offered as the marks screen offers it: not to a viewer, nor to a manager on the organization’s chart', () => {
    renderAs(me('manager', ['Engineering/Platform']));
    expect(button()).toBeNull();
    // A click on the chart opens nothing either.
    fireEvent.click(screen.getByRole('figure').firstElementChild!, { clientX: 300 });
    expect(screen.queryByText('Opening the form…')).toBeNull();
    cleanup();
    renderAs(me('viewer'));
    expect(button()).toBeNull();
    cleanup();
    renderAs(me('manager', ['Sales']), ['Engineering']);
    expect(button()).toBeNull();
    cleanup();
    renderAs(me('admin'));
    expect(button()).not.toBeNull();
    cleanup();
    // Without sign-in, as the marks screen (the server takes it from the machine it runs on only).
    renderAs(null);
    expect(button()).not.toBeNull();
  });
});
