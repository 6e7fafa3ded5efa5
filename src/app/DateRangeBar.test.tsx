// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_CONFIG, renderWithApp } from '../test/render';
import { DateRangeBar } from './DateRangeBar';

// TEST_CONFIG: history starts 2026-01-14, the latest day is 2026-05-31.
function renderBar(url = '/') {
  const r = renderWithApp(<DateRangeBar />, { url });
  const bar = () => screen.getByRole('group', { name: 'Date range' });
  return {
    ...r,
    preset: (name: string) => within(bar()).getByRole('button', { name }),
    from: () => within(bar()).getByLabelText<HTMLInputElement>('From'),
    to: () => within(bar()).getByLabelText<HTMLInputElement>('to'),
    apply: () => within(bar()).getByRole<HTMLButtonElement>('button', { name: 'Apply' }),
    pressed: () =>
      within(bar())
        .queryAllByRole('button', { pressed: true })
        .map((b) => b.textContent),
    summary: () => within(bar()).getByText(/days, UTC$/).textContent,
    range: () => [r.params().get('start'), r.params().get('end')],
  };
}

function applyCustom(b: ReturnType<typeof renderBar>, start: string, end: string) {
  fireEvent.change(b.from(), { target: { value: start } });
  fireEvent.change(b.to(), { target: { value: end } });
  fireEvent.click(b.apply());
}

describe('DateRangeBar', () => {
  it('starts on the last 30 complete days, with a clean URL', () => {
    const b = renderBar();
    expect(b.pressed()).toEqual(['30 days']);
    expect(b.from().value).toBe('2026-05-02');
    expect(b.to().value).toBe('2026-05-31');
    expect(b.from().min).toBe('2026-01-14');
    expect(b.to().max).toBe('2026-05-31');
    expect(b.summary()).toBe('May 2, 2026 – May 31, 2026 · 30 days, UTC');
    expect(b.range()).toEqual([null, null]);
  });

  it('writes a preset to the URL, and the default preset leaves the URL clean again', () => {
    const b = renderBar('/tools?interval=week');
    fireEvent.click(b.preset('7 days'));
    expect(b.range()).toEqual(['2026-05-25', '2026-05-31']);
    expect(b.pressed()).toEqual(['7 days']);
    expect(b.summary()).toBe('May 25, 2026 – May 31, 2026 · 7 days, UTC');
    // The custom inputs follow the URL.
    expect(b.from().value).toBe('2026-05-25');

    fireEvent.click(b.preset('90 days'));
    expect(b.range()).toEqual(['2026-03-03', '2026-05-31']);

    fireEvent.click(b.preset('Since history start'));
    expect(b.range()).toEqual(['2026-01-14', '2026-05-31']);
    expect(b.pressed()).toEqual(['Since history start']);

    fireEvent.click(b.preset('30 days'));
    expect(b.range()).toEqual([null, null]);
    expect(b.pressed()).toEqual(['30 days']);
    // Other parameters and the page stay.
    expect(b.location().pathname).toBe('/tools');
    expect(b.location().search).toBe('?interval=week');
  });

  it('offers calendar months and quarters, clamped to history, and none whose days are not complete yet', () => {
    // The latest day is May 31: today is June 1, whose month has no complete day yet.
    const b = renderBar();
    expect(b.preset('This month').hasAttribute('disabled')).toBe(true);
    expect(b.preset('This month').title).toBe('No complete day of it yet');

    fireEvent.click(b.preset('Last month'));
    expect(b.range()).toEqual(['2026-05-01', '2026-05-31']);
    expect(b.pressed()).toEqual(['Last month']);

    fireEvent.click(b.preset('This quarter'));
    expect(b.range()).toEqual(['2026-04-01', '2026-05-31']);
    expect(b.pressed()).toEqual(['This quarter']);

    // The first quarter began before history did: its days from history start.
    fireEvent.click(b.preset('Last quarter'));
    expect(b.range()).toEqual(['2026-01-14', '2026-03-31']);
    expect(b.summary()).toBe('Jan 14, 2026 – Mar 31, 2026 · 77 days, UTC');
  });

  it('applies a custom range to the URL; no preset is pressed', () => {
    const b = renderBar();
    applyCustom(b, '2026-03-01', '2026-03-15');
    expect(b.range()).toEqual(['2026-03-01', '2026-03-15']);
    expect(b.pressed()).toEqual([]);
    expect(b.summary()).toBe('Mar 1, 2026 – Mar 15, 2026 · 15 days, UTC');
  });

  // The inputs carry min and max: clicking Apply with a day outside them is refused by the browser's
  // constraint validation (jsdom implements it), so the URL keeps its range.
  it('refuses to apply a day before history start or after the latest day', () => {
    const b = renderBar('/?start=2026-03-01&end=2026-03-15');
    applyCustom(b, '2025-12-01', '2026-02-10');
    expect(b.from().validity.rangeUnderflow).toBe(true);
    expect(b.range()).toEqual(['2026-03-01', '2026-03-15']);

    applyCustom(b, '2026-05-20', '2026-07-04');
    expect(b.to().validity.rangeOverflow).toBe(true);
    expect(b.range()).toEqual(['2026-03-01', '2026-03-15']);
  });

  // A submission that skips that validation (e.g. Enter in a browser without it) is clamped.
  it.each([
    ['starts before history start', '2025-12-01', '2026-02-10', ['2026-01-14', '2026-02-10']],
    ['ends after the latest day', '2026-05-20', '2026-07-04', ['2026-05-20', '2026-05-31']],
    ['lies wholly after the latest day', '2026-08-01', '2026-08-10', ['2026-05-31', '2026-05-31']],
    ['lies wholly before history start', '2025-01-01', '2025-02-01', ['2026-01-14', '2026-01-14']],
  ])('clamps a submitted custom range that %s', (_, start, end, expected) => {
    const b = renderBar();
    fireEvent.change(b.from(), { target: { value: start } });
    fireEvent.change(b.to(), { target: { value: end } });
    fireEvent.submit(b.apply().form!);
    expect(b.range()).toEqual(expected);
    // The inputs start over from the clamped range.
    expect([b.from().value, b.to().value]).toEqual(expected);
  });

  it('swaps reversed ends', () => {
    const b = renderBar();
    applyCustom(b, '2026-04-10', '2026-04-01');
    expect(b.range()).toEqual(['2026-04-01', '2026-04-10']);
  });

  it('cannot apply an incomplete date', () => {
    const b = renderBar('/?start=2026-03-01&end=2026-03-15');
    fireEvent.change(b.from(), { target: { value: '' } });
    expect(b.apply().disabled).toBe(true);
    fireEvent.submit(b.apply().form!);
    expect(b.range()).toEqual(['2026-03-01', '2026-03-15']);
  });

  it.each([
    ['an impossible day', '/?start=2026-02-30&end=2026-03-10'],
    ['text', '/?start=last-week&end=today'],
    ['only one end', '/?start=2026-03-01'],
    ['a day with a time', '/?start=2026-03-01T00:00&end=2026-03-10'],
  ])('falls back to the default range for %s in the URL', (_, url) => {
    const b = renderBar(url);
    expect(b.pressed()).toEqual(['30 days']);
    expect(b.from().value).toBe('2026-05-02');
    expect(b.to().value).toBe('2026-05-31');
  });

  it('clamps a URL range outside the history it reads', () => {
    const b = renderBar('/?start=2025-06-01&end=2027-01-01');
    expect(b.pressed()).toEqual(['Since history start']);
    expect(b.summary()).toBe('Jan 14, 2026 – May 31, 2026 · 138 days, UTC');
  });

  it('offers the presets in one select for a phone, the same ranges as the buttons, and says when the range is custom', () => {
    const b = renderBar();
    const select = within(screen.getByRole('group', { name: 'Date range' })).getByRole<HTMLSelectElement>('combobox', {
      name: 'Range',
    });
    expect(select.value).toBe('30d');
    expect([...select.options].map((o) => [o.text, o.disabled])).toEqual([
      ['7 days', false],
      ['30 days', false],
      ['90 days', false],
      ['This month', true],
      ['Last month', false],
      ['This quarter', false],
      ['Last quarter', false],
      ['Since history start', false],
    ]);
    fireEvent.change(select, { target: { value: 'lastMonth' } });
    expect(b.range()).toEqual(['2026-05-01', '2026-05-31']);
    expect(b.pressed()).toEqual(['Last month']);
    expect(select.value).toBe('lastMonth');
    applyCustom(b, '2026-03-01', '2026-03-15');
    expect(select.value).toBe('');
    expect(select.selectedOptions[0]!.text).toBe('Custom: the dates below');
  });

  it('counts presets back from the latest day of the configuration', () => {
    const b = renderWithApp(<DateRangeBar />, { config: { ...TEST_CONFIG, latestDay: '2026-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: '7 days' }));
    expect([b.params().get('start'), b.params().get('end')]).toEqual(['2026-02-23', '2026-03-01']);
  });
});
