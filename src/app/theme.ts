/**
 * Light and dark themes: the system setting by default, or the user's choice,
 * kept in local storage (a display preference only; never the API key).
 */
export type ThemeChoice = 'system' | 'light' | 'dark';
const ITEM = 'agent-dashboard.theme';

export function getThemeChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(ITEM);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

const systemDark = () => typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches;

export function applyTheme(choice: ThemeChoice = getThemeChoice()): void {
  const dark = choice === 'dark' || (choice === 'system' && systemDark());
  document.documentElement.classList.toggle('dark', dark);
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(ITEM);
    else localStorage.setItem(ITEM, choice);
  } catch {
    /* storage unavailable: the choice lasts for this page */
  }
  applyTheme(choice);
}

/** Follows the system setting while the choice is "system". */
export function watchSystemTheme(): void {
  if (typeof matchMedia === 'undefined') return;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (getThemeChoice() === 'system') applyTheme('system');
  });
}
