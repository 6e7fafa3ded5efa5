import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQuiet } from './quiet';

describe('the readers’ quiet', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('lets work ahead go once no request has been under way for the settling time', async () => {
    const quiet = createQuiet(500);
    let went = 0;
    const wait = () => void quiet.idle().then(() => went++);
    // Nothing under way: it goes once the settling time has passed since it was made.
    wait();
    await vi.advanceTimersByTimeAsync(499);
    expect(went).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(went).toBe(1);

    // A request under way holds it, however long it takes; then the settling time after it ends.
    const end = quiet.enter();
    wait();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(went).toBe(1);
    // Another request begins and ends meanwhile: the time counts from the last to end.
    const other = quiet.enter();
    end();
    end();
    await vi.advanceTimersByTimeAsync(400);
    other();
    await vi.advanceTimersByTimeAsync(400);
    expect(went).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(went).toBe(2);

    // Ended twice, a request counts once: the next one still holds the work.
    const third = quiet.enter();
    wait();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(went).toBe(2);
    third();
    await vi.advanceTimersByTimeAsync(500);
    expect(went).toBe(3);
  });
});
