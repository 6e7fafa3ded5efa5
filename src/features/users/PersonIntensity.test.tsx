// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FiguresAnswer } from '../../api/figures';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import { PersonIntensity } from './PersonIntensity';

const RANGE = { start: '2026-04-01', end: '2026-04-29' };

function answer(band: string | null): FiguresAnswer {
  const current: Record<string, number | null> = { intensityCredits: 7_250 };
  for (const b of ['Heavy', 'Moderate', 'Light', 'Minimal', 'None'])
    current[`intensity${b}`] = band === null ? null : b === band ? 1 : 0;
  return {
    measures: Object.keys(current),
    by: 'total',
    range: RANGE,
    previous: null,
    teams: [],
    user: 'usr_1',
    intensity: {
      minActive: 8,
      thresholds: band
        ? [
            {
              quarter: '2026-Q2',
              p25: 1_500,
              p50: 6_000,
              p75: 24_000,
              people: 120,
              basis: { start: '2026-03-30', end: '2026-04-26' },
              computedAt: '2026-04-27T08:00:00Z',
              refreshed: false,
            },
          ]
        : [],
    },
    rows: [{ key: '', current, previous: null, change: null }],
  };
}

afterEach(() => vi.unstubAllGlobals());

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function renderFor(band: string | null) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      asked.push(String(input));
      return json(answer(band));
    }),
  );
  renderWithApp(<PersonIntensity userId="usr_1" range={RANGE} who="ada@acme.example" />, {
    url: `/users/usr_1?start=${RANGE.start}&end=${RANGE.end}`,
    config: { ...TEST_CONFIG, teams: true },
  });
  return asked;
}

describe('a person’s intensity', () => {
  it('gives their band over the four weeks to the range’s end, with the quarter’s thresholds, as use', async () => {
    const asked = renderFor('Moderate');
    const widget = await screen.findByRole('region', { name: 'Intensity' });
    await within(widget).findByText('Moderate');
    const url = new URL(asked[0]!, 'http://x');
    expect(url.pathname).toBe('/api/figures');
    expect(url.searchParams.get('user')).toBe('usr_1');
    expect(url.searchParams.get('by')).toBe('total');
    // Never a list of people.
    expect(url.searchParams.get('by')).not.toBe('person');
    expect(widget.textContent).toContain('four whole weeks from Mar 30, 2026 to Apr 26, 2026');
    expect(widget.textContent).toContain('Band: Moderate (7,250 credits in those weeks).');
    expect(widget.textContent).toMatch(
      /Heavy from\s*24K credits.*Moderate from\s*6,000 credits.*Light from\s*1,500 credits/,
    );
    expect(widget.textContent).toContain(
      'Intensity thresholds of 2026-Q2: the organization’s quartiles over the 120 people',
    );
    expect(within(widget).getByRole('note').textContent).toMatch(/^Intensity is use, not merit/);
  });

  it('says why there is no band when the quarter has no thresholds', async () => {
    renderFor(null);
    const widget = await screen.findByRole('region', { name: 'Intensity' });
    expect(await within(widget).findByText(/^No band: the quarter of these weeks has no thresholds yet/)).toBeTruthy();
  });
});
