import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  adoption,
  creditsPerActivePerson,
  DEFINITIONS,
  notYetSeen,
  people,
  perCommit,
  perPullRequest,
  spendPerActivePerson,
  ratioOfSums,
  toolCallsPerTurn,
} from './definitions';

describe('definitions', () => {
  it('tool calls per user turn over a range is the ratio of the sums, not the mean of the days', () => {
    // Two days: 10 calls over 1 turn (ratio 10), 90 calls over 30 turns (ratio 3).
    const days = [
      { toolCalls: 10, userMessages: 1 },
      { toolCalls: 90, userMessages: 30 },
    ];
    const sum = (f: (d: (typeof days)[number]) => number) => days.reduce((s, d) => s + f(d), 0);
    const ratio = toolCallsPerTurn(
      sum((d) => d.toolCalls),
      sum((d) => d.userMessages),
    );
    expect(ratio).toBeCloseTo(100 / 31, 12);
    // The mean of the daily ratios, (10 + 3) / 2 = 6.5, is what the tools page used to show: not this.
    expect(ratio).not.toBeCloseTo(6.5, 1);
  });

  it('has no ratio without a denominator, and zero over something is zero', () => {
    expect(toolCallsPerTurn(12, 0)).toBeNull();
    expect(toolCallsPerTurn(0, 4)).toBe(0);
    expect(ratioOfSums(3, 0)).toBeNull();
    expect(creditsPerActivePerson(1_000, 0)).toBeNull();
    expect(adoption(0, 0)).toBeNull();
  });

  it('credits per active person divides the range’s credits by its active people; adoption, active people by members', () => {
    expect(creditsPerActivePerson(27_339_250, 115)).toBeCloseTo(237_732.6087, 3);
    expect(adoption(115, 150)).toBeCloseTo(0.76667, 5);
    // Members named by the mapping who were never seen keep adoption below 1.
    expect(adoption(8, 10)).toBe(0.8);
  });

  it('counts the people the mapping names who have not been seen, never fewer than none', () => {
    expect(notYetSeen(150, 136)).toBe(14);
    expect(notYetSeen(136, 136)).toBe(0);
    // A mapping narrower than the known people (a restricted view) is no negative count.
    expect(notYetSeen(20, 136)).toBe(0);
  });

  it('says people, one or many', () => {
    expect(people(1)).toBe('1 person');
    expect(people(4)).toBe('4 people');
    expect(people(1200, (n) => n.toLocaleString('en-US'))).toBe('1,200 people');
  });

  it('labels every concept with "people", never "users", each with one sentence', () => {
    for (const d of Object.values(DEFINITIONS)) {
      // "User turn" and "user messages" are the service's words for what a person sends (as the glossary says),
      // not a name for people.
      expect(d.label).not.toMatch(/\busers\b|\buser\b(?! turn| messages)/i);
      expect(d.meaning).toMatch(/^[A-Z].*\.$/);
      expect(d.meaning.split(/\.\s/)).toHaveLength(1);
    }
    expect(DEFINITIONS.knownPeople.meaning).toContain('2026-01-14');
  });

  it('outcome ratios divide the range’s sums, and a team with no commits or pull requests has none (never infinity)', () => {
    // Two weeks: 1,000 credits over 1 commit, 9,000 over 29: 10,000 ÷ 30, not the mean of 1,000 and 310.
    expect(perCommit(1_000 + 9_000, 1 + 29)).toBeCloseTo(333.333, 3);
    expect(perPullRequest(5_000, 4)).toBe(1_250);
    expect(spendPerActivePerson(120, 8)).toBe(15);
    expect(perCommit(5_000, 0)).toBeNull();
    expect(perPullRequest(5_000, 0)).toBeNull();
    expect(spendPerActivePerson(3, 0)).toBeNull();
    expect(perCommit(0, 3)).toBe(0);
  });

  it('has every label in docs/reading.md’s Glossary, which says the same in prose', () => {
    const doc = readFileSync(new URL('../../docs/reading.md', import.meta.url), 'utf8');
    const glossary = doc.slice(doc.indexOf('## Glossary'));
    // Read as prose: without emphasis, its lines joined, in any case.
    const prose = glossary
      .replace(/\*\*|_/g, '')
      .replace(/\s+/g, ' ')
      .toLowerCase();
    const missing = Object.values(DEFINITIONS)
      .map((d) => d.label)
      .filter((label) => !prose.includes(label.toLowerCase()));
    expect(missing).toEqual([]);
  });
});
