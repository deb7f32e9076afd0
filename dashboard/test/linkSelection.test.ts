import { describe, expect, it } from 'vitest';
import * as pick from '../src/features/links/selection';

const page1 = [1, 2, 3];
const page2 = [4, 5, 6];

describe('the selection of links', () => {
  it('keeps ids picked on one page while another is shown, and counts them all', () => {
    let selection = pick.toggle(pick.emptySelection('f'), 2, page1);
    selection = pick.togglePage(selection, page2);
    expect(selection.ids).toEqual([2, 4, 5, 6]);
    expect(pick.selectedCount(selection, 40)).toBe(4);
    expect(pick.pageSelected(selection, page1)).toBe(false);
    expect(pick.pageSelected(selection, page2)).toBe(true);
    expect(pick.bulkTarget(selection, { search: 'x' })).toEqual({ ids: [2, 4, 5, 6] });
  });

  it("unpicks a page's links alone with the header's checkbox, and a link with its own", () => {
    let selection = pick.togglePage(pick.togglePage(pick.emptySelection('f'), page1), page2);
    selection = pick.togglePage(selection, page1);
    expect(selection.ids).toEqual(page2);
    selection = pick.toggle(selection, 5, page2);
    expect(selection.ids).toEqual([4, 6]);
  });

  it('selects every link matching the filter: counted by the total, sent as the filter', () => {
    const selection = pick.selectAllMatching(pick.togglePage(pick.emptySelection('f'), page1));
    expect(pick.isSelected(selection, 99)).toBe(true);
    expect(pick.selectedCount(selection, 37)).toBe(37);
    expect(pick.bulkTarget(selection, { space_id: 3 })).toEqual({ filter: { space_id: 3 } });
    // Unpicking one of them leaves the rest of the page shown, named by id.
    expect(pick.toggle(selection, 2, page1)).toEqual({ key: 'f', all: false, ids: [1, 3] });
    expect(pick.togglePage(selection, page1)).toEqual({ key: 'f', all: false, ids: [] });
  });

  it('is empty under other filters', () => {
    const selection = pick.toggle(pick.emptySelection('a'), 1, page1);
    expect(pick.current(selection, 'a')).toBe(selection);
    expect(pick.current(selection, 'b')).toEqual(pick.emptySelection('b'));
  });
});
