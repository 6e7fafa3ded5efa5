// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HOW_TO_READ } from '../lib/how-to-read';
import { PageHeader } from './Page';

afterEach(cleanup);

describe('PageHeader', () => {
  it('folds "How to read this page" under the title, and unfolds its lines on request', () => {
    render(<PageHeader title="Readiness" page="readiness" />);
    const summary = screen.getByText('How to read this page');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(summary);
    expect(details.open).toBe(true);
    const lines = [...details.querySelectorAll('li')].map((li) => li.textContent);
    expect(lines).toEqual([...HOW_TO_READ.readiness]);
    expect(lines[0]).toMatch(/level 1 below 20 %, 2 from 20 %, 3 from 40 %, 4 from 60 %, 5 from 80 %/);
  });

  it('says nothing of the kind without a page, and names the teams the figures are for', () => {
    render(<PageHeader title="A team" teams={['Data/Auth']} />);
    expect(screen.queryByText('How to read this page')).toBeNull();
    expect(screen.getByText('Data/Auth')).toBeTruthy();
    expect(screen.getByText(/figures for its members only/)).toBeTruthy();
  });
});
