// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FiguresAnswer } from '../../api/figures';
import type { Mark } from '../../api/marks';
import { marksQuery } from '../../data/marks';
import { INTENSITY_CAVEAT } from '../../lib/definitions';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import { IntensityWidget } from './IntensityWidget';

vi.mock('../../components/use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));

/** Wednesday Mar 4 to Tuesday Mar 31: five weeks, the first and the last partial. */
const RANGE = { start: '2026-03-04', end: '2026-03-31' };
const WEEKS = ['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30'];
const BANDS = ['Heavy', 'Moderate', 'Light', 'Minimal', 'None'];

/** Twenty members; the week of Mar 9 with too few active people (no bands). */
function answer(): FiguresAnswer {
  return {
    measures: [],
    by: 'week',
    range: RANGE,
    previous: null,
    teams: ['Engineering'],
    user: null,
    intensity: {
      minActive: 8,
      thresholds: [
        {
          quarter: '2026-Q1',
          p25: 1_500,
          p50: 6_000,
          p75: 24_000,
          people: 120,
          basis: { start: '2026-02-23', end: '2026-03-22' },
          computedAt: '2026-03-23T08:00:00Z',
          refreshed: true,
        },
      ],
    },
    rows: WEEKS.map((week, i) => {
      const shown = i !== 1;
      const people = [2 + i, 3, 3, 2, 10 - i];
      const current: Record<string, number | null> = { members: 20, intensityActive: shown ? 10 + i : 5 };
      BANDS.forEach((b, j) => {
        current[`intensity${b}`] = shown ? people[j]! : null;
        current[`intensity${b}Share`] = shown ? people[j]! / 20 : null;
      });
      return { key: week, current, previous: null, change: null };
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

function renderWidget() {
  const client = createTestQueryClient();
  client.setQueryData(marksQuery(RANGE, ['Engineering']).queryKey, { marks: [mark('2026-03-18', 'Training')] });
  return renderWithApp(
    <IntensityWidget
      answer={{ data: answer() }}
      range={RANGE}
      team="Engineering"
      name="Engineering"
      filename="team-Engineering-intensity-weekly"
    />,
    {
      url: `/teams/Engineering?start=${RANGE.start}&end=${RANGE.end}`,
      client,
      config: { ...TEST_CONFIG, teams: true },
    },
  );
}

describe('a team’s intensity per week', () => {
  it('stacks each band’s share of the members a week, says it is use, not merit, and gives the thresholds', () => {
    renderWidget();
    const widget = screen.getByRole('region', { name: 'Intensity per week' });
    const figure = within(widget).getByRole('figure');
    expect(figure.getAttribute('aria-label')).toBe(
      "The share of Engineering's members in each band of intensity, per week, from the week of Mar 2, 2026 to that of Mar 30, 2026; 1 week not shown; 1 mark.",
    );
    expect(
      within(figure)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(BANDS);
    // The partial weeks shaded; the mark of Wednesday Mar 18 on the week of Mar 16.
    expect([...figure.querySelectorAll('[data-shade]')].map((e) => e.getAttribute('data-shade'))).toEqual([
      '2026-03-02',
      '2026-03-30',
    ]);
    expect(figure.querySelector('[data-mark-line]')!.getAttribute('data-mark-line')).toBe('2026-03-16');
    expect(within(widget).getByRole('note').textContent).toBe(INTENSITY_CAVEAT);
    expect(INTENSITY_CAVEAT).toMatch(/^Intensity is use, not merit: .*never ranked person by person\.$/);
    expect(widget.textContent).toContain(
      '1 of 5 weeks has no bands: fewer than 8 people were active in the four weeks to its end.',
    );
    expect(within(widget).getByRole('list', { name: 'Intensity thresholds' }).textContent).toBe(
      'Intensity thresholds, 2026-Q1: Light from 1,500, Moderate from 6,000, Heavy from 24K credits over four weeks; from the 120 people active Feb 23, 2026 to Mar 22, 2026, refreshed by an admin.',
    );
  });

  it('shows each week’s people and shares as a table, and downloads them with the marks as CSV', async () => {
    renderWidget();
    const widget = screen.getByRole('region', { name: 'Intensity per week' });
    fireEvent.click(within(widget).getByRole('button', { name: 'Show Intensity per week as a table' }));
    const table = within(widget).getByRole('table', { name: 'Intensity of Engineering, per week' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + WEEKS.length);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent!.replace(/[▲▼↕]/g, '').trim()),
    ).toEqual(expect.arrayContaining(['Week of', 'Members', 'Heavy (share)', 'None (people)']));
    const blobs: Blob[] = [];
    let name = '';
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (b: Blob) => (blobs.push(b), 'blob:intensity');
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    try {
      fireEvent.click(within(widget).getByRole('button', { name: 'Download CSV of Intensity per week' }));
      expect(name).toBe('team-Engineering-intensity-weekly.csv');
      const text = await new Promise<string>((done) => {
        const reader = new FileReader();
        reader.onload = () => done(String(reader.result));
        reader.readAsText(blobs[0]!);
      });
      const [header, ...lines] = text.trim().split('\r\n');
      expect(header).toBe(
        'week,members,active,heavyShare,heavyPeople,moderateShare,moderatePeople,lightShare,lightPeople,minimalShare,minimalPeople,noneShare,nonePeople,marks',
      );
      expect(lines).toHaveLength(WEEKS.length);
      expect(lines[0]).toBe('2026-03-02,20,10,0.1,2,0.15,3,0.15,3,0.1,2,0.5,10,');
      // The withheld week: its people counted, no bands; the mark on its week.
      expect(lines[1]).toBe('2026-03-09,20,5,,,,,,,,,,,');
      expect(lines[2]!.endsWith(',2026-03-18 Engineering: Training')).toBe(true);
    } finally {
      click.mockRestore();
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    }
  });
});
