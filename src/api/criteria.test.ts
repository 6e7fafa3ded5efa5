import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KNOWN_CRITERIA } from './criteria';

const shared = fileURLToPath(new URL('../../../shared/spec/readiness-criteria.json', import.meta.url));

describe('known criteria', () => {
  it('has 84 criteria over 9 pillars and levels 1–5', () => {
    expect(KNOWN_CRITERIA).toHaveLength(84);
    expect(new Set(KNOWN_CRITERIA.map((c) => c.pillar)).size).toBe(9);
    expect(KNOWN_CRITERIA.every((c) => c.level >= 1 && c.level <= 5)).toBe(true);
  });
  it.runIf(existsSync(shared))('matches the shared specification', () => {
    expect(KNOWN_CRITERIA).toEqual(JSON.parse(readFileSync(shared, 'utf8')).criteria);
  });
});
