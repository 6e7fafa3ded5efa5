import { describe, expect, it } from 'vitest';
import { cohorts, COHORT_OFFSETS, median, sharpDrop, spikeVerdict } from './rules';

describe('the spike rule (median + 4 robust deviations over the person’s own 28 days)', () => {
  const usual = [900, 1100, 1000, 950, 1050, 1000, 980, 1020, 990, 1010];

  it('finds a day far above the person’s usual level', () => {
    const v = spikeVerdict(usual, 6000);
    expect(v.status).toBe('spike');
    if (v.status === 'too-little-history') throw new Error('unreachable');
    expect(v.median).toBe(1000);
    // MAD 20 × 1.4826 < a tenth of the median: the deviation is 100, the bar twice the median.
    expect(v.deviation).toBe(100);
    expect(v.threshold).toBe(2000);
  });

  it('does not flag a busy but ordinary day, nor a flat person a little above their habit', () => {
    expect(spikeVerdict(usual, 1900).status).toBe('usual');
    const flat = Array(20).fill(500);
    expect(spikeVerdict(flat, 900).status).toBe('usual');
    expect(spikeVerdict(flat, 1001).status).toBe('spike');
  });

  it('is not moved by one earlier spike in the history', () => {
    const withSpike = [...usual, 50_000];
    expect(spikeVerdict(withSpike, 6000).status).toBe('spike');
  });

  it('a varied person needs a larger jump', () => {
    const varied = [200, 3000, 800, 2500, 400, 1800, 1200, 2200, 600, 1500];
    const v = spikeVerdict(varied, 5000);
    expect(v.status).toBe('usual');
    expect(spikeVerdict(varied, 9000).status).toBe('spike');
  });

  it('says when there is too little history', () => {
    expect(spikeVerdict([1000, 1000, 1000, 1000, 1000, 1000], 50_000)).toEqual({
      status: 'too-little-history',
      days: 6,
    });
  });

  it('takes the middle of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('a sharp drop of a team’s active people', () => {
  it('is 30 % or more, from at least 5 people', () => {
    expect(sharpDrop(10, 7)).toBe(true);
    expect(sharpDrop(10, 8)).toBe(false);
    expect(sharpDrop(4, 0)).toBe(false); // too few to say
    expect(sharpDrop(5, 3)).toBe(true);
  });
});

describe('adoption cohorts', () => {
  const week = (i: number) => `week ${i}`;
  it('groups people by their first active week and reads the share active 1, 2, 4 … weeks later', () => {
    const people = [
      [0, 1, 2, 4], // joined week 0: back in weeks 1, 2 and 4
      [0, 1], // joined week 0: back in week 1 only
      [0], // joined week 0, never back
      [0, 8], // back in week 8 only
      [3, 4, 7], // joined week 3: back in weeks 4 and 7
    ];
    const c = cohorts(people, week, 10);
    expect(c.map((x) => [x.week, x.size])).toEqual([
      ['week 0', 4],
      ['week 3', 1],
    ]);
    const at = (x: (typeof c)[number], offset: number) => x.retention[COHORT_OFFSETS.indexOf(offset as never)];
    expect(at(c[0]!, 1)).toBe(0.5);
    expect(at(c[0]!, 2)).toBe(0.25);
    expect(at(c[0]!, 4)).toBe(0.25);
    expect(at(c[0]!, 8)).toBe(0.25);
    // Week 12 has not ended (10 complete weeks): not read as a drop to nothing.
    expect(at(c[0]!, 12)).toBeNull();
    expect(at(c[1]!, 1)).toBe(1);
    expect(at(c[1]!, 2)).toBe(0);
    expect(at(c[1]!, 4)).toBe(1);
    expect(at(c[1]!, 8)).toBeNull(); // week 11 is not over
  });
});
