import { describe, expect, it } from 'vitest';
import type { MergedUser } from './merge';
import { facetValues, filterUsers } from './filter';

const u = (userId: string, email: string | null, over: Partial<MergedUser> = {}) =>
  ({
    userId,
    email,
    delegationLevel: 'auto-high',
    primaryModelTier: 'standard',
    languages: ['Go'],
    ...over,
  }) as MergedUser;
const users = [
  u('usr_1', 'Ada.Lovelace@acme.example'),
  u('usr_2', null, { delegationLevel: 'manual', languages: ['Rust', 'Go'] }),
  u('usr_3', 'grace@acme.example', { primaryModelTier: 'thinking', languages: ['Python'] }),
];
const none = { search: '', delegation: '', tier: '', language: '' };

describe('filterUsers', () => {
  it.each([
    [{ search: 'ada' }, ['usr_1']],
    [{ search: 'USR_2' }, ['usr_2']],
    [{ search: '  acme ' }, ['usr_1', 'usr_3']],
    [{ delegation: 'manual' }, ['usr_2']],
    [{ tier: 'thinking' }, ['usr_3']],
    [{ language: 'Go' }, ['usr_1', 'usr_2']],
    [{ language: 'Go', delegation: 'auto-high' }, ['usr_1']],
    [{}, ['usr_1', 'usr_2', 'usr_3']],
  ])('%j → %j', (f, ids) => expect(filterUsers(users, { ...none, ...f }).map((x) => x.userId)).toEqual(ids));

  it('lists the facet values present', () => {
    expect(facetValues(users)).toEqual({
      delegation: ['auto-high', 'manual'],
      tier: ['standard', 'thinking'],
      language: ['Go', 'Python', 'Rust'],
    });
  });
});
