import { useState } from 'react';

/** The page of a list of the period's clicks: the first again whenever `key` (the link and the period) changes. */
export function usePeriodPage(key: string): [number, (page: number) => void] {
  const [page, setPage] = useState(1);
  const [pageKey, setPageKey] = useState(key);
  if (pageKey !== key) {
    setPageKey(key);
    setPage(1);
  }
  return [page, setPage];
}
