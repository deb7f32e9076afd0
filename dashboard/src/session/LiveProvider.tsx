import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { notifySignedOut } from '../api/client';
import { useLoad, type Loaded } from '../hooks/useLoad';
import { followEventStream, type StreamState } from './eventStream';
import { useCan } from './SessionProvider';

/**
 * An event of the stream, as far as the screens read it: `data` is the link (`id`) for a link's events, the clicks
 * (each with its `link_id`) for `link.clicked`.
 */
export interface LiveEvent {
  id: string;
  type: string;
  data: { id?: number; clicks?: { link_id: number }[] };
}

/**
 * What the live indicator says: the stream's state, `stopped` once the service refused it for good, and `none` where
 * no stream is followed (a session without `links.read`, or no provider).
 */
export type LiveState = StreamState | 'stopped' | 'none';

/** Told of each event, or of null when anything may have changed (a pause longer than the service keeps events). */
type Listener = (event: LiveEvent | null) => void;

interface LiveContextValue {
  state: LiveState;
  subscribe: (listener: Listener) => () => void;
}

const LiveContext = createContext<LiveContextValue>({ state: 'none', subscribe: () => () => undefined });

/**
 * How long a hidden tab keeps its stream: a tab left in the background for the day should not hold one of the
 * account's `EVENT_STREAMS_PER_ACCOUNT` streams, and one back within the hour resumes where it stopped.
 */
export const HIDDEN_CLOSE_MS = 5 * 60_000;
/** How long the service keeps a closed stream's events for its resumption (an hour), less a margin. */
const RESUMABLE_MS = 55 * 60_000;
/**
 * The least time between two refreshes of a screen, and the wait before the first: a burst of clicks is one
 * refresh, and a refresh comes after a replica has caught up with the change rather than before.
 */
export const REFRESH_GAP_MS = 1000;

/** The links an event is about: its link, or the links of its clicks. */
export function linksOf(event: LiveEvent): number[] {
  if (event.data.clicks !== undefined) return event.data.clicks.map((click) => click.link_id);
  return event.data.id === undefined ? [] : [event.data.id];
}

/** Whether an event changes which links there are or where they are (their spaces, tags), rather than their clicks. */
export function changesLinks(event: LiveEvent): boolean {
  return event.type === 'link.created' || event.type === 'link.updated' || event.type === 'link.deleted';
}

function parseEvent(data: string): LiveEvent | null {
  try {
    const event = JSON.parse(data) as LiveEvent;
    return typeof event.type === 'string' && typeof event.data === 'object' && event.data !== null
      ? event
      : null;
  } catch {
    return null;
  }
}

/** False once the tab has been hidden for `hiddenMs`, true again as soon as it shows. */
function useAwake(hiddenMs: number): boolean {
  const [awake, setAwake] = useState(true);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      if (document.hidden) timer = setTimeout(() => setAwake(false), hiddenMs);
      else setAwake(true);
    };
    if (document.hidden) timer = setTimeout(() => setAwake(false), hiddenMs);
    document.addEventListener('visibilitychange', changed);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', changed);
    };
  }, [hiddenMs]);
  return awake;
}

/**
 * The tab's one event stream, while the session may read links and the tab has not been hidden for
 * {@link HIDDEN_CLOSE_MS}; its screens subscribe to it ({@link useLiveRefresh}). Mounted for a signed-in session
 * alone, so a sign-out (or a switch to another workspace, which mounts it again) closes it; a 401 signs out as any
 * request's does.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const follows = useCan()('links.read');
  const awake = useAwake(HIDDEN_CLOSE_MS);
  const [state, setState] = useState<LiveState>('connecting');
  const [listeners] = useState(() => new Set<Listener>());
  const lastId = useRef('');
  const pausedAt = useRef<number | null>(null);

  useEffect(() => {
    if (!follows || !awake) return;
    const publish = (event: LiveEvent | null) => {
      for (const listener of listeners) listener(event);
    };
    // Back after longer than the service keeps events: what was missed cannot be told, so every screen reads again.
    if (pausedAt.current !== null && Date.now() - pausedAt.current > RESUMABLE_MS) publish(null);
    pausedAt.current = null;
    const controller = new AbortController();
    void followEventStream({
      signal: controller.signal,
      lastEventId: lastId.current,
      onState: setState,
      onEvent: (frame) => {
        lastId.current = frame.id;
        const event = parseEvent(frame.data);
        if (event !== null) publish(event);
      },
    }).then((end) => {
      if (end === 'signed-out') notifySignedOut();
      if (end !== null) setState('stopped');
    });
    return () => {
      controller.abort();
      pausedAt.current = Date.now();
    };
  }, [follows, awake, listeners]);

  const subscribe = useCallback(
    (listener: Listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    [listeners],
  );
  const value = useMemo<LiveContextValue>(
    () => ({ state: follows ? state : 'none', subscribe }),
    [follows, state, subscribe],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** Where the tab's stream stands, for the live indicator. */
export function useLiveState(): LiveState {
  return useContext(LiveContext).state;
}

/**
 * Calls `refresh` when an event that `relevant` keeps arrives: {@link REFRESH_GAP_MS} after it, together with every
 * other within that time, and, while the tab is hidden, once when it shows again. A screen keeps its place (page,
 * filters, selection, an open dialog): only its data is read again.
 */
export function useLiveRefresh(relevant: (event: LiveEvent) => boolean, refresh: () => void): void {
  const { subscribe } = useContext(LiveContext);
  const keeps = useEffectEvent(relevant);
  const run = useEffectEvent(refresh);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waiting = false;
    const fire = () => {
      timer = undefined;
      if (document.hidden) waiting = true;
      else run();
    };
    const shown = () => {
      if (waiting && !document.hidden) {
        waiting = false;
        run();
      }
    };
    document.addEventListener('visibilitychange', shown);
    const stop = subscribe((event) => {
      if (timer === undefined && (event === null || keeps(event))) timer = setTimeout(fire, REFRESH_GAP_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [subscribe]);
}

const LiveVersion = createContext(0);

/**
 * A screen of many loads that follows the stream: each {@link useLiveLoad} below it reads again, together, when an
 * event that `relevant` keeps arrives, so the screen costs one refresh per second at most, however many cards it has.
 */
export function LiveScreen({
  relevant,
  children,
}: {
  relevant: (event: LiveEvent) => boolean;
  children: ReactNode;
}) {
  const [version, setVersion] = useState(0);
  useLiveRefresh(relevant, () => setVersion((count) => count + 1));
  return <LiveVersion.Provider value={version}>{children}</LiveVersion.Provider>;
}

/** {@link useLoad}, read again whenever the {@link LiveScreen} around it refreshes; the previous answer stays shown. */
export function useLiveLoad<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const version = useContext(LiveVersion);
  return useLoad(key === null ? null : `${key}#${version}`, load);
}
