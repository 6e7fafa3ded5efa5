// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Mark } from '../../api/marks';
import { timeSeriesFrame } from '../../components/chart-frame';
import { marksQuery } from '../../data/marks';
import { eachDay } from '../../lib/dates';
import { outcomeWeeks } from '../../lib/outcomes';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import { json } from './fixtures';
import { OutcomeRatiosWidget } from './OutcomeRatiosWidget';
import { weekLabel } from './week-columns';

vi.mock('../../components/use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));
// The chart's mark form loads when first opened: loaded here once, so opening it waits on no transform.
await import('../../components/ChartMarkForm');

/** Wednesday Mar 4 to Tuesday Mar 31: a partial week of 5 days, three whole weeks, and a partial week of 2. */
const RANGE = { start: '2026-03-04', end: '2026-03-31' };
const URL = `/teams/Engineering?start=${RANGE.start}&end=${RANGE.end}`;

/** A group's weeks: each day `scale` × 1,000 credits and 0.5 EUR of spend, 1 commit, 2 pull requests. */
function weeksOf(scale: number) {
  const days = eachDay(RANGE.start, RANGE.end);
  const rows = <T extends object>(f: (d: string) => T) => days.map((d) => ({ date: d, ...f(d) }));
  return outcomeWeeks(RANGE, {
    tokens: rows(() => ({ billable_tokens: 1_000 * scale })),
    productivity: rows(() => ({ git_commits: 1, git_prs_created: 2 })),
    tools: rows(() => ({ tool_calls: 10 })),
    activity: rows(() => ({ user_messages: 5, weekly_active_users: 4 })),
    spend: rows(() => ({ spend: 0.5 * scale })),
  });
}
const TEAM = weeksOf(1);
const ORG = weeksOf(3);

const mark = (day: string, text: string, team: string): Mark => ({
  id: `${day}-${text}`,
  day,
  team,
  text,
  source: 'user',
  author: null,
  updatedAt: null,
  editable: true,
});

function renderWidget(url = URL, opts: { currency?: string | null; organization?: boolean; marks?: Mark[] } = {}) {
  const client = createTestQueryClient();
  client.setQueryData(marksQuery(RANGE, ['Engineering']).queryKey, {
    marks: opts.marks ?? [mark('2026-03-11', 'Training', 'Engineering')],
  });
  return renderWithApp(
    <OutcomeRatiosWidget
      weeks={{ data: TEAM }}
      organization={opts.organization === false ? null : { data: ORG }}
      currency={opts.currency === undefined ? 'EUR' : opts.currency}
      team="Engineering"
      name="Engineering"
      filename="outcomes"
    />,
    { url, client, config: { ...TEST_CONFIG, teams: true, currency: 'EUR' } },
  );
}

const figure = () => screen.getByRole('figure');
/** The value axis' labels, as drawn. */
const axis = () =>
  [...figure().querySelectorAll('svg text[text-anchor="end"]')].map((t) => t.textContent).filter(Boolean);

describe('a team’s outcome ratios per week', () => {
  it('draws the organization’s line for the same ratio, shades the partial weeks and stands each mark on its week', () => {
    renderWidget();
    expect(figure().getAttribute('aria-label')).toMatch(
      /^Credits per commit of Engineering, per week, beside the whole organization’s, .*; 1 mark\.$/,
    );
    // Two series, so a legend: the team and the whole organization.
    expect(
      within(figure())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Engineering', 'Whole organization']);
    expect(figure().querySelectorAll('path[stroke="var(--chart-2)"]').length).toBeGreaterThan(0);
    // The partial weeks (the first and the last) are shaded and labelled, as on the daily charts' weeks.
    expect([...figure().querySelectorAll('[data-shade]')].map((e) => e.getAttribute('data-shade'))).toEqual([
      '2026-03-02',
      '2026-03-30',
    ]);
    // A mark of Wednesday Mar 11 stands on the week of Mar 9.
    const flag = within(figure()).getByRole('button', { name: 'Mark 1, Mar 11, 2026, Engineering: Training' });
    expect(flag).toBeTruthy();
    expect(figure().querySelector('[data-mark-line]')!.getAttribute('data-mark-line')).toBe('2026-03-09');
  });

  it('writes credits as the dashboard does, spend in its currency, and keeps its choices in the URL', async () => {
    const { params } = renderWidget();
    // Credits per commit: 1,000 a day, 1 commit a day; the organization's, 3,000: "3K" at most on the axis.
    expect(axis().every((t) => /^[\d,.]+K?$/.test(t!))).toBe(true);
    const widget = screen.getByRole('region', { name: 'Outcome ratios per week' });
    fireEvent.click(within(widget).getByRole('button', { name: 'Spend (EUR)' }));
    await waitFor(() => expect(params().get('amount')).toBe('spend'));
    expect(figure().getAttribute('aria-label')).toMatch(/^Spend per commit of Engineering/);
    // Each label of the value axis in the currency.
    expect(axis().length).toBeGreaterThan(2);
    expect(axis().every((t) => t!.startsWith('€'))).toBe(true);
    fireEvent.click(within(widget).getByRole('button', { name: 'Per pull request' }));
    await waitFor(() => expect(params().get('per')).toBe('pr'));
    expect(figure().getAttribute('aria-label')).toMatch(/^Spend per pull request of Engineering/);
  });

  it('opens on the choices the URL gives, and leaves spend out without a price list', () => {
    renderWidget(`${URL}&per=person&amount=spend`);
    expect(figure().getAttribute('aria-label')).toMatch(/^Spend per active person of Engineering/);
  });

  it('has no organization line for a reader who does not see the organization’s figures', () => {
    renderWidget(URL, { organization: false, currency: null });
    expect(within(figure()).queryAllByRole('listitem')).toEqual([]);
    expect(figure().getAttribute('aria-label')).toMatch(/^Credits per commit of Engineering, per week, from/);
    expect(screen.queryByRole('button', { name: 'Spend (EUR)' })).toBeNull();
  });

  it('lets a reader who may mark the team add a mark on a week clicked, prefilled with its Monday and the team', async () => {
    const posted: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        posted.push({
          path: new globalThis.URL(String(input), 'http://x').pathname,
          body: JSON.parse(String(init?.body)),
        });
        return json({ ...mark('2026-03-16', 'New tool', 'Engineering'), id: 'new' }, 201);
      }),
    );
    renderWidget();
    const widget = screen.getByRole('region', { name: 'Outcome ratios per week' });
    // The button opens the form on the last week; a click on the chart picks the week nearest it.
    fireEvent.click(within(widget).getByRole('button', { name: 'Add a mark on Outcome ratios per week' }));
    const t0 = Date.now();
    const form = await within(widget).findByRole(
      'form',
      { name: 'New mark on Outcome ratios per week' },
      { timeout: 10000 },
    );
    console.log('TOOK', Date.now() - t0);
    expect(within(form).getByLabelText('Day (UTC)')).toHaveProperty('value', '2026-03-30');
    expect(within(form).getByRole('combobox', { name: 'For' })).toHaveProperty('value', 'Engineering');
    const frame = timeSeriesFrame({
      data: TEAM.map((w) => ({ date: w.week, value: w.creditsPerCommit, org: 0 })),
      keys: ['value', 'org'],
      xKey: 'date',
      xFormat: (x) => weekLabel(TEAM.find((w) => w.week === x)!),
      band: false,
      stacked: false,
      fractions: false,
      width: 600,
      height: 280,
    });
    fireEvent.click(figure().firstElementChild!, { clientX: frame.x(2) + 6 });
    const picked = await within(widget).findByRole('form', { name: 'New mark on Outcome ratios per week' });
    await waitFor(() => expect(within(picked).getByLabelText('Day (UTC)')).toHaveProperty('value', '2026-03-16'));
    fireEvent.change(within(picked).getByRole('textbox', { name: 'Text' }), { target: { value: 'New tool' } });
    fireEvent.click(within(picked).getByRole('button', { name: 'Add mark' }));
    expect(await within(widget).findByRole('status')).toHaveProperty(
      'textContent',
      'Added the mark of Mar 16, 2026 for Engineering.',
    );
    expect(posted).toEqual([
      { path: '/api/marks', body: { day: '2026-03-16', team: 'Engineering', text: 'New tool' } },
    ]);
  });
});
