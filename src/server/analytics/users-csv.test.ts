import { describe, expect, it } from 'vitest';
import { csvCell } from '../../lib/csv';
import { csvNumbers } from './users-csv';

describe('a run of numbers from DuckDB’s JSON', () => {
  it('is written as csvCell writes each number: whole numbers without .0, exponents and signs as JavaScript writes them, nothing for a null or a non-finite number', () => {
    expect(csvNumbers('[26133957.0,0.1,2046.47,0.0]')).toBe('26133957,0.1,2046.47,0');
    expect(csvNumbers('[1e21,1e-7,0.000015,100000000000000000000.0]')).toBe(
      '1e+21,1e-7,0.000015,100000000000000000000',
    );
    expect(csvNumbers('[-0.0,-3.0,-1.5]')).toBe('0,-3,-1.5');
    expect(csvNumbers('[null,Infinity,-Infinity,NaN,2.0]')).toBe(',,,,2');
    for (const x of [0, 1, 2.5, 1e21, 1.5e300, 5e-324, -2.25])
      expect(csvNumbers(`[${JSON.stringify(x)}]`)).toBe(csvCell(x));
  });
});
