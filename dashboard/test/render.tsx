import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Session } from '../src/api/session';
import { NotificationsProvider } from '../src/components/Notifications';
import { I18nProvider } from '../src/i18n/I18nProvider';
import { SessionProvider, useSessionState } from '../src/session/SessionProvider';
import { json, mockApi, type Routes } from './api';
import { session as defaultSession } from './fixtures';

function WhenSignedIn({ children }: { children: ReactNode }) {
  const { state } = useSessionState();
  return state.status === 'signed-in' ? children : <p>not signed in: {state.status}</p>;
}

interface Options {
  session?: Session;
  routes?: Routes;
  /** The address inside the app, as wouter sees it under /app. */
  path?: string;
}

/**
 * Renders `ui` as the app would once signed in: the real providers, the session read from a stand-in
 * GET /api/v1/session, and a router on an address held in memory.
 */
export async function renderSignedIn(
  ui: ReactNode,
  { session = defaultSession(), routes = {}, path = '/' }: Options = {},
) {
  const api = mockApi({ 'GET /api/v1/session': () => json(200, { data: session }), ...routes });
  const location = memoryLocation({ path, record: true });
  const view = render(
    <I18nProvider language="en">
      <NotificationsProvider>
        <SessionProvider>
          <WhenSignedIn>
            <Router hook={location.hook} searchHook={location.searchHook}>
              {ui}
            </Router>
          </WhenSignedIn>
        </SessionProvider>
      </NotificationsProvider>
    </I18nProvider>,
  );
  await waitFor(() => expect(screen.queryByText(/not signed in/)).not.toBeInTheDocument());
  return { ...view, api, location };
}
