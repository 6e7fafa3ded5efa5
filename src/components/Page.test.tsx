// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageHeader } from './Page';

afterEach(cleanup);

describe('PageHeader', () => {
  it('folds "How to read this page" under the title, and unfolds its lines on request', () => {
    const howToRead = ['Every figure counts whole UTC days.', 'Each chart has a table view and a CSV.'];
    render(<PageHeader title="Usage" howToRead={howToRead} />);
    const summary = screen.getByText('How to read this page');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(summary);
    expect(details.open).toBe(true);
    const lines = [...details.querySelectorAll('li')].map((li) => li.textContent);
    expect(lines).toEqual(howToRead);
  });

  it('says nothing of the kind without the page’s sentences, and names the teams the figures are for', () => {
    render(<PageHeader title="A team" teams={['Data/Auth']} />);
    expect(screen.queryByText('How to read this page')).toBeNull();
    expect(screen.getByText('Data/Auth')).toBeTruthy();
    expect(screen.getByText(/figures for its members only/)).toBeTruthy();
  });
});
