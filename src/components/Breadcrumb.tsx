import { Link } from 'react-router-dom';

/** Where a page sits: each step up linked (`to`, already made by useLinkTo), the page itself last. */
export function Breadcrumb({ trail, current }: { trail: { label: string; to: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-fg-muted">
        {trail.map((t, i) => (
          <li key={t.to} className="flex items-center gap-1">
            {i > 0 && <span aria-hidden>/</span>}
            <Link to={t.to} className="text-accent-strong underline">
              {t.label}
            </Link>
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span aria-hidden>/</span>
          <span aria-current="page" className="text-fg">
            {current}
          </span>
        </li>
      </ol>
    </nav>
  );
}
