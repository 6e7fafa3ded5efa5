// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getApiKey, setApiKey } from '../data/client';
import { renderWithApp } from '../test/render';
import { KeyScreen } from './KeyScreen';

afterEach(() => {
  setApiKey(undefined);
  sessionStorage.clear();
  localStorage.clear();
});

const storedValues = (s: Storage) => Object.keys(s).map((k) => s.getItem(k));

function renderKeyScreen(rejected = false) {
  const onDone = vi.fn();
  const r = renderWithApp(<KeyScreen rejected={rejected} onDone={onDone} />);
  const input = screen.getByLabelText<HTMLInputElement>('API key');
  const submit = screen.getByRole('button', { name: 'Use this key' });
  return { ...r, onDone, input, submit };
}

describe('KeyScreen', () => {
  it('asks for the key in a password field', () => {
    const { input } = renderKeyScreen();
    expect(screen.getByRole('heading', { name: 'Enter an API key' })).toBeTruthy();
    expect(input.type).toBe('password');
    expect(input.autocomplete).toBe('off');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a submitted key (trimmed) in session storage only, never local storage, and calls onDone', () => {
    const { input, submit, onDone } = renderKeyScreen();
    fireEvent.change(input, { target: { value: '  sk-ant-test-123 \n' } });
    fireEvent.click(submit);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(getApiKey()).toBe('sk-ant-test-123');
    expect(storedValues(sessionStorage)).toEqual(['sk-ant-test-123']);
    expect(localStorage.length).toBe(0);
  });

  it('drops every answer given to the previous key, so what failed without a key is asked for again', () => {
    const { client, input, submit } = renderKeyScreen();
    client.setQueryData(['tokens', 'x'], { data: [] });
    expect(client.getQueryData(['tokens', 'x'])).toEqual({ data: [] });
    fireEvent.change(input, { target: { value: 'sk-new' } });
    fireEvent.click(submit);
    expect(client.getQueryData(['tokens', 'x'])).toBeUndefined();
    expect(client.getQueryState(['tokens', 'x'])?.status).toBe('pending');
  });

  it.each([
    ['an empty key', ''],
    ['a blank key', '   '],
  ])('refuses %s: nothing stored, onDone not called', (_, value) => {
    const { input, submit, onDone } = renderKeyScreen();
    fireEvent.change(input, { target: { value } });
    fireEvent.click(submit);
    expect(onDone).not.toHaveBeenCalled();
    expect(getApiKey()).toBeUndefined();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.length).toBe(0);
  });

  it('says when the service refused the previous key', () => {
    renderKeyScreen(true);
    expect(screen.getByRole('alert').textContent).toContain('did not accept the key (401)');
  });
});
