// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FiguresAnswer } from '../../api/figures';
import type { Mark } from '../../api/marks';
import { marksQuery } from '../../data/marks';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import { FunnelWidget } from './FunnelWidget';

vi.mock('../../components/use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));

/** Wednesday Mar 4 to Tuesday Mar 31: five weekly cohorts, the first and the last partial. */
const RANGE = { start: '2026-03-04', end: '2026-03-31' };
const WEEKS = ['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30'];

/** Each week's starters; the week of Mar 9 withheld by privacy mode. */
function answer(): FiguresAnswer {
  return {
    measures: [],
    by: 'week',
    range: RANGE,
    previous: null,
    teams: ['Engineering'],
    user: null,
    funnel: { graceDays: 14, minStarters: 3 },
    rows: WEEKS.map((week, i) => {
      const shown = i !== 1;
      const v = (n: number) => (shown ? n : null);
      return {
        key: week,
        current: {
          funnelStarters: v(10),
          funnelGrace: v(i >= 3 ? 10 : 0),
          funnelDue: v(i >= 3 ? 0 : 10),
          funnelRetainedDue: v(i >= 3 ? 0 : 10),
          funnelSession: v(9),
          funnelSessionShare: v(0.9),
          funnelSessionDays: v(1.5),
          funnelCommit: v(6),
          funnelCommitShare: v(0.6),
          funnelCommitDays: v(4),
          funnelPr: v(4),
          funnelPrShare: v(0.4),
          funnelPrDays: v(9),
          funnelRetained: v(5),
          funnelRetainedShare: v(0.5),
        },
        previous: null,
        change: null,
      };
    }),
  };
}

const mark = (day: string, text: string): Mark => ({
  id: `${day}-${text}`,
  day,
  team: 'Engineering',
  text,
  source: 'user',
  author: null,
  updatedAt: null,
  editable: true,
});

function renderWidget(data: FiguresAnswer = answer()) {
  const client = createTestQueryClient();
  client.setQueryData(marksQuery(RANGE, ['Engineering']).queryKey, { marks: [mark('2026-03-18', 'Onboarding day')] });
  return renderWithApp(
    <FunnelWidget
      answer={{ data }}
      range={RANGE}
      teams={['Engineering']}
      name="Engineering"
      filename="team-Engineering-funnel-weekly"
    />,
    {
      url: `/teams/Engineering?start=${RANGE.start}&end=${RANGE.end}`,
      client,
      config: { ...TEST_CONFIG, teams: true },
    },
  );
}

describe('the funnel per weekly cohort', () => {
  it('draws a line a step with the marks on their weeks, and says who is in grace and what is withheld', () => {
    renderWidget();
    const widget = screen.getByRole('region', { name: 'From access to a first pull request' });
    const figure = within(widget).getByRole('figure');
    expect(figure.getAttribute('aria-label')).toBe(
      "Of Engineering's 40 starters from the week of Mar 2, 2026 to that of Mar 30, 2026, the share reaching each step per weekly cohort; 1 week withheld; 1 mark.",
    );
    expect(figure.querySelector('[data-mark-line]')!.getAttribute('data-mark-line')).toBe('2026-03-16');
    expect(widget.textContent).toContain('20 starters of 40 still within 14 days of access are in grace');
    // The last two weeks' starters are all in grace: no share yet, said rather than left as an empty chart.
    expect(widget.textContent).toContain(
      '2 weeks of starters have no shares yet: their four weeks end after Mar 31, 2026.',
    );
    expect(widget.textContent).toContain(
      '1 week of 5 withheld: privacy mode shows no cohort of fewer than 3 starters, nor one that the teams’ and the other weeks’ figures would tell by difference.',
    );
  });

  it('says which weeks privacy mode gives no shares of: only some of their starters four weeks in', async () => {
    const data = answer();
    // The week of Mar 16: given, its steps not (some of its starters are four weeks in by Mar 31, some not).
    for (const m of ['funnelDue', 'funnelSession', 'funnelSessionShare', 'funnelPr', 'funnelPrShare'])
      data.rows[2]!.current[m] = null;
    renderWidget(data);
    const widget = await screen.findByRole('region', { name: 'From access to a first pull request' });
    expect(widget.textContent).toContain(
      '1 week of starters gives no shares in privacy mode: only some of its starters are four weeks in by Mar 31, 2026.',
    );
    renderWidget();
    const plain = (await screen.findAllByRole('region', { name: 'From access to a first pull request' }))[1]!;
    expect(plain.textContent).not.toContain('no shares in privacy mode');
  });

  it('shows each cohort as a table and downloads it with the marks as CSV', async () => {
    renderWidget();
    const widget = screen.getByRole('region', { name: 'From access to a first pull request' });
    fireEvent.click(
      within(widget).getByRole('button', { name: 'Show From access to a first pull request as a table' }),
    );
    const table = within(widget).getByRole('table', {
      name: 'From access to a first pull request, Engineering, per weekly cohort',
    });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + WEEKS.length);
    const blobs: Blob[] = [];
    let name = '';
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (b: Blob) => (blobs.push(b), 'blob:funnel');
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    try {
      fireEvent.click(
        within(widget).getByRole('button', { name: 'Download CSV of From access to a first pull request' }),
      );
      expect(name).toBe('team-Engineering-funnel-weekly.csv');
      const text = await new Promise<string>((done) => {
        const reader = new FileReader();
        reader.onload = () => done(String(reader.result));
        reader.readAsText(blobs[0]!);
      });
      const lines = text
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]!.split(',')[0]).toBe('week');
      expect(lines[0]!.split(',').at(-1)).toBe('marks');
      expect(lines).toHaveLength(1 + WEEKS.length);
      expect(lines.find((l) => l.startsWith('2026-03-16'))).toMatch(/Onboarding day/);
    } finally {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
      click.mockRestore();
    }
  });
});
