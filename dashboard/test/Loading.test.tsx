import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { mockApi } from './api';

describe('loading', () => {
  it('shows the app’s frame and the shape of a page while the session is read, with a status for screen readers', () => {
    // The session's answer never comes: what shows is what a slow start shows.
    mockApi({ 'GET /api/v1/session': () => new Promise<Response>(() => undefined) });
    window.history.replaceState(null, '', '/app/links');
    render(<App />);

    expect(screen.getByRole('banner')).toHaveTextContent('Shortlink');
    const main = screen.getByRole('main');
    expect(within(main).getByRole('status')).toHaveTextContent('Loading…');
    expect(main.querySelectorAll('.skeleton-line').length).toBeGreaterThan(1);
  });
});
