import { describe, expect, it } from 'vitest';
import { readServerConfig } from './config';

describe('ONBOARDING_GRACE_DAYS', () => {
  it('is 14 days unless set, and a whole number of days from 0 to 365', () => {
    expect(readServerConfig({}).onboardingGraceDays).toBe(14);
    expect(readServerConfig({ ONBOARDING_GRACE_DAYS: '0' }).onboardingGraceDays).toBe(0);
    expect(readServerConfig({ ONBOARDING_GRACE_DAYS: '30' }).onboardingGraceDays).toBe(30);
  });

  it('stops the start with the setting named when it is not', () => {
    for (const bad of ['two weeks', '-1', '3.5', '366'])
      expect(() => readServerConfig({ ONBOARDING_GRACE_DAYS: bad })).toThrow(
        'ONBOARDING_GRACE_DAYS must be an integer from 0 to 365',
      );
  });
});
