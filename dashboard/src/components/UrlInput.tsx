import type { ControlProps } from './Field';

/**
 * An address as typed, with `https://` put before one typed without a scheme (`example.com/page`), as a browser's
 * address bar does. Anything else is left as it is, for the API's message to explain.
 */
export function withScheme(text: string): string {
  const url = text.trim();
  if (url === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  if (url.startsWith('//')) return `https:${url}`;
  // A host first: letters, digits, dots and dashes, with a dot or a port (`localhost:3000`), then anything.
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*(\.[a-z0-9-]+|:\d+)([/?#:]|$)/i.test(url) && !/\s/.test(url)
    ? `https://${url}`
    : url;
}

interface UrlInputProps extends ControlProps {
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  /** Required by the API, which says so when it is left empty, rather than by the browser. */
  'aria-required'?: true | undefined;
  maxLength?: number;
}

/**
 * A URL field that takes `example.com` as well as `https://example.com`: a text field, since the browser's own URL
 * field refuses an address without a scheme before anyone can help, completed with `https://` when it is left.
 */
export function UrlInput({ value, onChange, ...props }: UrlInputProps) {
  return (
    <input
      {...props}
      type="text"
      inputMode="url"
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      placeholder="https://"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => {
        const completed = withScheme(value);
        if (completed !== value) onChange(completed);
      }}
    />
  );
}
