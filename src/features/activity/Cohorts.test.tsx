// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Cohorts } from '../../api/insights';
import { TEST_CONFIG, captureDownloads, renderWithApp } from '../../test/render';
import { CohortsWidget } from './Cohorts';

const ANSWER: Cohorts = {
  teams: [],
  offsets: [1, 2, 4],
  completeWeeks: 3,
  storedDays: 20,
  historyDays: 30,
  cohorts: [
    { week: '2026-01-12', size: 4, retention: [0.5, 0.25, null] },
    { week: '2026-01-19', size: 2, retention: [1, null, null] },
  ],
};

describe('the adoption cohorts', () => {
  it('shows each week’s cohort with its shares as a heat map, blanks for weeks not over, and a CSV', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(ANSWER), { headers: { 'content-type': 'application/json' } })),
    );
    const downloads = captureDownloads();
    renderWithApp(<CohortsWidget teams={[]} />, { config: { ...TEST_CONFIG, teams: true } });
    const row = (await screen.findByRole('rowheader', { name: 'week of Jan 12' })).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // No cohort can have a 4-week share yet: that column waits, and says so.
    expect(cells).toEqual(['4', '50%', '25%']);
    const later = (await screen.findByRole('rowheader', { name: 'week of Jan 19' })).closest('tr')!;
    expect(
      within(later)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', '100%', '·']);
    expect(screen.queryByRole('columnheader', { name: '4 weeks' })).toBeNull();
    expect(screen.getByText(/4 weeks: shown once the history is that long\./)).toBeTruthy();
    // The history's first week holds everyone already active when it starts.
    expect(row.querySelector('th')!.textContent).toBe('week of Jan 12*');
    expect(
      screen.getByText(/\* The history starts on Jan 14, 2026: the week of Jan 12 holds everyone already active then/),
    ).toBeTruthy();
    expect(screen.getByText(/The store holds 20 of 30 days of history so far/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Adoption cohorts' }));
    const lines = (await downloads.text()).trimEnd().split('\r\n');
    expect(lines).toEqual([
      'week_first_active,people,active_after_1_weeks,active_after_2_weeks',
      '2026-01-12,4,0.5,0.25',
      '2026-01-19,2,1,',
    ]);
  });
});
