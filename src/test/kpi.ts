import { within } from '@testing-library/react';

/**
 * Each KPI card on the page (components/KpiCard.tsx), its label beside what its "About …" button says (its
 * tooltip, the button's description): empty when the card has no button, so a test lists the cards that say
 * nothing of how they are counted.
 */
export function cardDefinitions(): [label: string, said: string][] {
  return [...document.querySelectorAll<HTMLElement>('[data-kpi]')].map((card) => {
    const about = within(card).queryByRole('button', { name: /^About / });
    const tip = about && document.getElementById(about.getAttribute('aria-describedby') ?? '');
    return [card.dataset.kpi ?? '', tip?.textContent?.trim() ?? ''];
  });
}

/** The labels of the KPI cards that do not say how they are counted. */
export const undefinedCards = () => cardDefinitions().flatMap(([label, said]) => (said ? [] : [label]));
