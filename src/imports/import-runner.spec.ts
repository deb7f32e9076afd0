import { PageBounds } from './import-runner';
import { SourceError, type SourceLink, type SourcePage } from './sources/source';

function page(links: number, next: string | null): SourcePage {
  return { links: Array.from({ length: links }, () => ({}) as SourceLink), next, errors: [] };
}

describe('PageBounds', () => {
  it('lets a source read to its end', () => {
    const bounds = new PageBounds(250, 0);
    expect(() => {
      bounds.check(null, page(100, '2'));
      bounds.check('2', page(100, '3'));
      bounds.check('3', page(50, null));
    }).not.toThrow();
  });

  it('refuses a page that names itself as the next', () => {
    expect(() => new PageBounds(null, 0).check('4', page(10, '4'))).toThrow(
      new SourceError('the source answered the same page again as the next one'),
    );
  });

  it('refuses empty pages that still promise more, three in a row', () => {
    const bounds = new PageBounds(null, 0);
    bounds.check(null, page(0, '2'));
    bounds.check('2', page(0, '3'));
    expect(() => bounds.check('3', page(0, '4'))).toThrow(/3 empty pages in a row/);
  });

  it('refuses links far past the total the source announced, counting those read before a restart', () => {
    const bounds = new PageBounds(100, 1000);
    expect(() => bounds.check('11', page(200, '12'))).toThrow(/past the 100 links it said it holds/);
    expect(() => new PageBounds(100, 0).check(null, page(1100, '2'))).not.toThrow();
  });
});
