import { api, call } from '../../api/client';
import type { Domain, Pixel, Space, Tag } from '../../api/types';
import { useLoad } from '../../hooks/useLoad';
import { useCan } from '../../session/SessionProvider';

/** The most a list page holds; pickers offer the first 100 by name. */
const PICKER_SIZE = 100;

export interface Choices {
  spaces: Space[];
  domains: Domain[];
  pixels: Pixel[];
  /** The first tags by name: their colours, which a link's tags (names alone) are shown in. */
  tags: Tag[];
  /** Loads the tags again, after a change that may have made one. */
  reloadTags: () => void;
}

/**
 * The spaces, domains, pixels and tags a link can name, for the filters, the form's pickers and the tags' colours,
 * each loaded only when the session may read it (tags are the links' own: `links.read`).
 */
export function useChoices(): Choices {
  const can = useCan();
  const query = { sort_by: 'name', sort: 'asc', per_page: PICKER_SIZE } as const;
  const spaces = useLoad(can('spaces.read') ? 'spaces' : null, (signal) =>
    call(api.GET('/api/v1/spaces', { params: { query }, signal })),
  );
  const domains = useLoad(can('domains.read') ? 'domains' : null, (signal) =>
    call(api.GET('/api/v1/domains', { params: { query }, signal })),
  );
  const pixels = useLoad(can('pixels.read') ? 'pixels' : null, (signal) =>
    call(api.GET('/api/v1/pixels', { params: { query }, signal })),
  );
  const tags = useLoad(can('links.read') ? 'tags' : null, (signal) =>
    call(api.GET('/api/v1/tags', { params: { query }, signal })),
  );
  return {
    spaces: spaces.data?.data ?? [],
    domains: domains.data?.data ?? [],
    pixels: pixels.data?.data ?? [],
    tags: tags.data?.data ?? [],
    reloadTags: tags.reload,
  };
}
