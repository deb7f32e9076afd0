import { checkSvgLogo, svgLogoProblem } from './svg-logo';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const svg = (inner: string, attributes = '') => `<svg ${NS} viewBox="0 0 10 10"${attributes}>${inner}</svg>`;

describe('svgLogoProblem', () => {
  it.each([
    ['a plain drawing', svg('<circle cx="5" cy="5" r="4" fill="#f00"/>')],
    [
      'what editors write around it: a declaration, a DOCTYPE naming the DTD, comments, their namespaces',
      '\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
        '<!-- Created with an editor -->\n' +
        `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" ` +
        'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="10" height="10">\n' +
        '  <sodipodi:namedview id="base" inkscape:zoom="1"/>\n' +
        '  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>\n' +
        '  <g inkscape:label="Layer 1"><path d="M0 0h10v10z" style="fill:#123456;stroke:none"/></g>\n' +
        '</svg>\n',
    ],
    [
      'gradients, masks and uses of its own elements',
      svg(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient>' +
          '<path id="p" d="M0 0h1v1z"/></defs><rect width="10" height="10" fill="url(#g)" style="mask:url( \'#m\' )"/>' +
          '<use href="#p"/><use xlink:href="#p" xmlns:xlink="http://www.w3.org/1999/xlink"/>',
      ),
    ],
    [
      'a style sheet, in CDATA too',
      svg('<style>.a{fill:url(#g)}</style><style><![CDATA[ .b > .c { fill: red } ]]></style>'),
    ],
    [
      'an inline raster image',
      svg('<image width="10" height="10" href="data:image/png;base64,iVBORw0KGgo="/>'),
    ],
    [
      'entities XML defines, and character references',
      svg('<text>Tom &amp; Jerry &#x263A; &#9731; &lt;3</text>'),
    ],
    [
      'an editor’s attributes, which nothing renders',
      svg(
        '<g inkscape:export-filename="C:\\logos\\mark.png" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"/>',
      ),
    ],
    [
      'an svg element that names no namespace, as hand-written files leave it',
      '<svg viewBox="0 0 1 1"><rect/></svg>',
    ],
    [
      'an svg prefixed root',
      '<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:rect width="1" height="1"/></s:svg>',
    ],
  ])('takes %s', (_name, text) => {
    expect(svgLogoProblem(text)).toBeNull();
  });

  it.each([
    ['a script', svg('<script>alert(1)</script>')],
    ['a prefixed script', svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>')],
    ['a script that closes itself', svg('<script href="https://evil.example/x.js"/>')],
    ['an event handler', svg('<rect width="1" height="1"/>', ' onload="alert(1)"')],
    ['an event handler in capitals, on a child', svg('<rect ONCLICK="alert(1)"/>')],
    ['a javascript: link', svg('<a href="javascript:alert(1)"><rect/></a>')],
    [
      'a javascript: link written with character references',
      svg('<a href="&#106;avascript:alert(1)"><rect/></a>'),
    ],
    ['an external image', svg('<image href="https://tracker.example/pixel.png"/>')],
    ['an inline SVG image', svg('<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/>')],
    [
      'a use of another document',
      svg('<use xlink:href="other.svg#logo" xmlns:xlink="http://www.w3.org/1999/xlink"/>'),
    ],
    [
      'a url() outside the document, in an attribute',
      svg('<rect fill="url(https://evil.example/p.svg#g)"/>'),
    ],
    [
      'a url() outside the document, in a style',
      svg('<rect style="background: url(//evil.example/x.png)"/>'),
    ],
    ['an @import', svg('<style>@import "https://evil.example/x.css";</style>')],
    [
      'a url() in a CDATA style sheet',
      svg('<style><![CDATA[ .a { fill: url(http://evil.example/) } ]]></style>'),
    ],
    [
      'a foreign object',
      svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>'),
    ],
    ['an iframe', svg('<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/>')],
    [
      'an animation that sets an attribute',
      svg('<a><set attributeName="href" to="javascript:alert(1)"/></a>'),
    ],
    ['an animation', svg('<rect><animate attributeName="x" values="0;1" dur="1s"/></rect>')],
    ['a style sheet instruction', `<?xml-stylesheet href="https://evil.example/x.css"?>${svg('')}`],
    ['a CSS escape that spells url(', svg('<rect style="fill: \\75 rl(https://evil.example/)"/>')],
    ['an image-set()', svg('<style>.a { background: image-set("https://evil.example/x.png" 1x) }</style>')],
    ['a DOCTYPE with entities', `<!DOCTYPE svg [<!ENTITY x "y">]>${svg('<text>&x;</text>')}`],
  ])('refuses %s as unsafe', (_name, text) => {
    expect(svgLogoProblem(text)).toBe('unsafe');
  });

  it.each([
    ['text', 'not an image'],
    ['an empty document', ''],
    ['HTML', '<html><body>hi</body></html>'],
    ['an svg element in another namespace', '<svg xmlns="http://www.w3.org/1999/xhtml"/>'],
    ['a root that is not svg', `<g ${NS}/>`],
    ['mismatched tags', svg('<g><rect></g></rect>')],
    ['an unclosed root', `<svg ${NS}><rect/>`],
    ['two roots', `${svg('')}${svg('')}`],
    ['text after the root', `${svg('')}trailing`],
    ['an entity XML does not define', svg('<text>&nbsp;</text>')],
    ['a bare ampersand', svg('<text>a & b</text>')],
    ['an unquoted attribute', `<svg ${NS} width=10/>`],
    ['an attribute given twice', `<svg ${NS} width="1" width="2"/>`],
    ['a less-than sign in an attribute', `<svg ${NS} id="a<b"/>`],
  ])('refuses %s as no SVG', (_name, text) => {
    expect(svgLogoProblem(text)).toBe('not-svg');
  });

  it('names the SVG namespace on a root that names none, and leaves any other logo as it came', () => {
    expect(checkSvgLogo('<!-- <svg> --><svg width="1" data-x="a>b"><rect/></svg>')).toEqual({
      text: '<!-- <svg> --><svg xmlns="http://www.w3.org/2000/svg" width="1" data-x="a>b"><rect/></svg>',
    });
    const named = svg('<rect/>');
    expect(checkSvgLogo(named)).toEqual({ text: named });
    expect(checkSvgLogo('<svg><script/></svg>')).toEqual({ problem: 'unsafe' });
  });
});
