import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Definition } from '../lib/definitions';

const WIDTH = 256;
const MARGIN = 8;

/**
 * A small "i" button beside a figure's label that says what the figure counts (lib/definitions.ts).
 * Reachable three ways: hover shows the sentence, keyboard focus shows it (Escape hides it), and a screen
 * reader hears it as the button's description. A click pins it open, for touch.
 *
 * The sentence is drawn `position: fixed` in a portal at the end of the page, kept inside the viewport: a
 * card in the left column of a phone, or a header inside a scrolling table, would otherwise cut it off,
 * and a column header's or a card's text stays its label alone.
 */
export function DefinitionTip({ definition, className = '' }: { definition: Definition; className?: string }) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [hover, setHover] = useState(false);
  const [focus, setFocus] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  const open = hover || focus || pinned;

  const place = useCallback(() => {
    const r = button.current?.getBoundingClientRect();
    if (!r) return;
    const width = Math.min(WIDTH, window.innerWidth - 2 * MARGIN);
    // Under the button, its right edge at the button's, moved back in when the viewport ends first.
    const left = Math.min(Math.max(MARGIN, r.right - width), window.innerWidth - width - MARGIN);
    setAt({ top: r.bottom + 4, left });
  }, []);

  useEffect(() => {
    if (!open) return;
    place();
    // A fixed box does not follow its button by itself: placed again whenever anything scrolls or the viewport
    // changes. Closing it then lost a sentence the reader had just opened when the page moved under it (a chart
    // above drawn taller as it loaded, and the browser keeping the reader's place).
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open, place]);

  return (
    <span className={`inline-flex align-middle ${className}`}>
      <button
        ref={button}
        type="button"
        aria-label={`About ${definition.label}`}
        aria-describedby={id}
        aria-expanded={open}
        onClick={() => setPinned((p) => !p)}
        onMouseEnter={() => setHover(true)}
        onMouseLeave={() => setHover(false)}
        onFocus={() => setFocus(true)}
        onBlur={() => {
          setFocus(false);
          setPinned(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            e.stopPropagation();
            setHover(false);
            setFocus(false);
            setPinned(false);
          }
        }}
        className="inline-flex size-4 shrink-0 items-center justify-center rounded-full text-fg-subtle hover:text-accent-strong"
      >
        {/* Drawn, not a letter: a header's or a line's text stays its words alone. */}
        <svg aria-hidden viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.4">
          <circle cx="8" cy="8" r="6.8" />
          <path d="M8 7v4.5" strokeLinecap="round" />
          <circle cx="8" cy="4.6" r="0.6" fill="currentColor" stroke="none" />
        </svg>
      </button>
      {/* Always in the document (hidden when closed): the button's description reads it either way. */}
      {createPortal(
        <span
          id={id}
          role="tooltip"
          hidden={!open}
          style={
            at ? { top: at.top, left: at.left, width: Math.min(WIDTH, window.innerWidth - 2 * MARGIN) } : undefined
          }
          className="fixed z-50 rounded-md border border-line bg-surface p-2 text-left text-xs font-normal whitespace-normal text-fg-soft normal-case shadow-lg"
        >
          <span className="font-medium text-fg">{definition.label}:</span> {definition.meaning}
        </span>,
        document.body,
      )}
    </span>
  );
}

/** A figure's label followed by its definition button, for lines of text ("115 active people ⓘ"). */
export function Defined({ definition, children }: { definition: Definition; children: React.ReactNode }) {
  return (
    <span className="inline-flex items-center gap-1">
      {children}
      <DefinitionTip definition={definition} />
    </span>
  );
}
