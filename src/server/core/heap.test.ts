import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth } from './heap';

const peakOf = (mode: string) =>
  (
    JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'src/test/heap-fixture.ts', mode], {
        encoding: 'utf8',
      }),
    ) as { peak: number }
  ).peak;

describe('boundHeapGrowth', () => {
  it('keeps the heap of a process making garbage well under what V8 lets it reach by default', () => {
    const unbounded = peakOf('default');
    const bounded = peakOf('bounded');
    expect(bounded).toBeLessThan(unbounded * 0.75);
  }, 60_000);

  it("leaves an operator's own choice on node's command line alone", () => {
    expect(boundHeapGrowth(100, ['--heap-growing-percent=300'])).toBe(false);
    expect(boundHeapGrowth(100, ['--heap_growing_percent=300'])).toBe(false);
  });
});
