import { useId, type ReactNode } from 'react';

/** A part of a page under its own heading, which names it for screen readers' landmarks. */
export function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
