import { describe, expect, it } from 'vitest';
import type { ProductivityDay } from '../../api/schemas';
import { byExtension, byLanguage, productivityTotals } from './shaping';

const d = (date: string): ProductivityDay => ({
  date,
  files_created: 2,
  files_edited: 8,
  by_extension: [
    { extension: '.ts', count: 6 },
    { extension: '.py', count: 4 },
  ],
  by_language: [
    { language: 'TypeScript', count: 6 },
    { language: 'Python', count: 4 },
  ],
  git_commits: 3,
  git_prs_created: 1,
});

describe('productivity shaping', () => {
  it('sums over days and ranks languages and extensions', () => {
    const days = [d('2026-02-01'), d('2026-02-02')];
    expect(productivityTotals(days)).toEqual({ created: 4, edited: 16, commits: 6, prs: 2 });
    expect(byLanguage(days).map((x) => [x.name, x.value, x.share])).toEqual([
      ['TypeScript', 12, 0.6],
      ['Python', 8, 0.4],
    ]);
    expect(byExtension(days)[0]).toEqual({ name: '.ts', value: 12, share: 0.6 });
  });
});
