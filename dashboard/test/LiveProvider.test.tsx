import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveIndicator } from '../src/app/LiveIndicator';
import { HIDDEN_CLOSE_MS, linksOf, LiveProvider, useLiveRefresh } from '../src/session/LiveProvider';
import { json, type Recorded } from './api';
import { session } from './fixtures';
import { renderSignedIn } from './render';

/** The stream the stand-in service holds open for each request: the test writes its events. */
function streams() {
  const open: { request: Recorded; write: (text: string) => void; closed: boolean }[] = [];
  const answer = (request: Recorded) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = {
      request,
      write: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
      closed: false,
    };
    const body = new ReadableStream<Uint8Array>({
      start: (c) => (controller = c),
      cancel: () => void (stream.closed = true),
    });
    open.push(stream);
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  const last = () => open[open.length - 1]!;
  return { open, answer, last };
}

let eventCount = 0;
function clicked(linkId: number): string {
  eventCount += 1;
  const id = `evt_${eventCount}`;
  return `id: ${id}\nevent: link.clicked\ndata: ${JSON.stringify({ id, type: 'link.clicked', data: { clicks: [{ link_id: linkId }] } })}\n\n`;
}

/** A screen that follows the clicks of link 5, and counts its refreshes. */
let refreshes = 0;
function Follower() {
  useLiveRefresh(
    (event) => linksOf(event).includes(5),
    () => (refreshes += 1),
  );
  return null;
}

let hidden = false;
Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });

function setHidden(value: boolean) {
  hidden = value;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

afterEach(() => {
  vi.useRealTimers();
  refreshes = 0;
  hidden = false;
});

async function renderLive(scopes = session().scopes, stream: (request: Recorded) => Response) {
  return renderSignedIn(
    <LiveProvider>
      <LiveIndicator />
      <Follower />
    </LiveProvider>,
    { session: session(scopes), routes: { 'GET /api/v1/events/stream': stream } },
  );
}

describe('the live updates', () => {
  it('says when they are live, and refreshes a screen once for a burst of its events, not for others', async () => {
    const { answer, last } = streams();
    await renderLive(undefined, answer);
    await screen.findByText(/Live updates are on/);

    last().write(clicked(5) + clicked(5) + clicked(6) + clicked(5));
    await waitFor(() => expect(refreshes).toBe(1));
    last().write(clicked(6));
    await pause(1300);
    expect(refreshes).toBe(1);
    last().write(clicked(5));
    await waitFor(() => expect(refreshes).toBe(2));
  });

  it('holds a hidden tab’s refresh until it shows again', async () => {
    const { answer, last } = streams();
    await renderLive(undefined, answer);
    await screen.findByText(/Live updates are on/);
    setHidden(true);
    last().write(clicked(5) + clicked(5));
    await pause(1300);
    expect(refreshes).toBe(0);
    setHidden(false);
    expect(refreshes).toBe(1);
  });

  it('closes the stream of a tab hidden for long, and resumes after the last event when it shows', async () => {
    const { answer, open, last } = streams();
    await renderLive(undefined, answer);
    await waitFor(() => expect(open).toHaveLength(1));
    last().write(clicked(5));
    await waitFor(() => expect(refreshes).toBe(1));

    vi.useFakeTimers({ shouldAdvanceTime: true });
    setHidden(true);
    await act(() => vi.advanceTimersByTimeAsync(HIDDEN_CLOSE_MS - 1000));
    expect(open[0]!.closed).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(open[0]!.closed).toBe(true);
    setHidden(false);
    await waitFor(() => expect(open).toHaveLength(2));
    expect(last().request.headers.get('Last-Event-ID')).toBe(`evt_${eventCount}`);
  });

  it('opens no stream for a session that may not read links', async () => {
    const { answer, open } = streams();
    const { api } = await renderLive(['stats.read'], answer);
    await pause(50);
    expect(open).toHaveLength(0);
    expect(api.to('GET', '/api/v1/events/stream')).toHaveLength(0);
    expect(screen.queryByText(/Live updates/)).not.toBeInTheDocument();
  });

  it('signs out when the stream answers 401', async () => {
    await renderLive(undefined, () => json(401, { message: 'Unauthenticated.', status: 401 }));
    await screen.findByText('not signed in: signed-out');
  });

  it('says when the service will not stream to the session', async () => {
    await renderLive(undefined, () => json(403, { message: 'This action is unauthorized.', status: 403 }));
    await screen.findByText(/Live updates are off/);
  });
});
