import { translatorFor } from '../pages/translator';
import { worldMap } from './world-map';

const en = translatorFor('en');

describe('the world map of the stats page', () => {
  const markup = worldMap(en, [
    { value: 'GB', count: 8 },
    { value: 'FR', count: 1 },
    { value: null, count: 4 },
  ]).markup;

  it('shades each country by its clicks and titles it with them', () => {
    expect(markup).toContain(
      '<svg class="map" viewBox="0 0 960 470" role="img" aria-labelledby="map-heading"',
    );
    expect(markup).toMatch(/class="map-step-4"><title>United Kingdom: 8 clicks<\/title><\/path>/);
    expect(markup).toMatch(/class="map-step-1"><title>France: 1 click<\/title><\/path>/);
    // Every other country is drawn, unshaded; the unknown country is nowhere.
    expect(markup.match(/class="map-step-0"\/>/g)!.length).toBeGreaterThan(150);
    expect(markup).not.toContain('Unknown');
  });

  it('lists the same counts in a table beside it, and a legend of the shades', () => {
    expect(markup).toContain(
      '<tbody><tr><th scope="row">United Kingdom</th><td>8</td></tr><tr><th scope="row">France</th><td>1</td></tr></tbody>',
    );
    expect(markup).toContain('None</li>');
    expect(markup).toContain('1–2</li>');
    expect(markup).toContain('7–8</li>');
  });

  it('draws the map unshaded, without a table, when no country is known', () => {
    const empty = worldMap(en, [{ value: null, count: 2 }]).markup;
    expect(empty).not.toContain('<table');
    expect(empty).not.toContain('map-step-1');
    expect(empty).toContain('None</li></ul>');
  });
});
