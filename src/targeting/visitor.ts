import type { IncomingHttpHeaders } from 'node:http';
import { isbot } from 'isbot';
import UAParser from 'ua-parser-js';
import { continentOf, isLanguageCode, type Continent } from './allowed-values';
import type { Place } from './geoip';

/** What targeting and click records know of a visitor. Never the IP address itself. Shared: never changed. */
export interface VisitorProfile {
  readonly country: string | null;
  /** The city's name, where a city database is installed. */
  readonly city: string | null;
  readonly continent: Continent | null;
  /** One of the spec's operating systems, or null. */
  readonly os: string | null;
  /** One of the spec's browsers, or null. */
  readonly browser: string | null;
  /** One of the spec's devices. */
  readonly device: string;
  /** ISO 639-1, from the first language of Accept-Language. */
  readonly language: string | null;
  /** The host of the referring page, when there was one. */
  readonly referrer: string | null;
  /** A crawler, or a link-preview fetcher: redirected, not counted. */
  readonly bot: boolean;
}

export interface VisitorRequest {
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
  referer: string | undefined;
  /** Where the client address is, as far as it is known. */
  place: Place;
  /** The visitor asked not to be tracked (see {@link asksNotToBeTracked}). */
  doNotTrack: boolean;
}

/**
 * What a click keeps of a visitor beyond what targeting reads: the settings `HONOR_DO_NOT_TRACK`, `TRACK_REFERRER`
 * and `TRACK_CITY`. The click is counted whatever they say; only its referrer and city are left out.
 */
export interface TrackingPolicy {
  /** A visitor who asks not to be tracked is counted without referrer and city. */
  readonly honorDoNotTrack: boolean;
  /** false: no visitor's referrer is kept. */
  readonly trackReferrer: boolean;
  /** false: no visitor's city is kept. */
  readonly trackCity: boolean;
}

/** Global Privacy Control (`Sec-GPC: 1`) or the older Do Not Track (`DNT: 1`). */
export function asksNotToBeTracked(headers: IncomingHttpHeaders): boolean {
  return headers['sec-gpc'] === '1' || headers.dnt === '1';
}

const OS_NAMES: Record<string, string> = {
  iOS: 'iOS',
  Android: 'Android',
  Windows: 'Windows',
  'Mac OS': 'OS X',
  macOS: 'OS X',
  Ubuntu: 'Ubuntu',
  'Chromium OS': 'Chrome OS',
  'Chrome OS': 'Chrome OS',
  Linux: 'Linux',
};

/** Other Linux distributions count as Linux. */
const LINUX_DISTRIBUTIONS = new Set([
  'Arch',
  'CentOS',
  'Debian',
  'Fedora',
  'Gentoo',
  'Kubuntu',
  'Linpus',
  'Mageia',
  'Mandriva',
  'Mint',
  'PCLinuxOS',
  'RedHat',
  'Slackware',
  'SUSE',
  'openSUSE',
  'Zenwalk',
]);

const BROWSER_NAMES: Record<string, string> = {
  Chrome: 'Chrome',
  'Chrome Headless': 'Chrome',
  'Chrome WebView': 'Chrome',
  'Mobile Chrome': 'Chrome',
  Chromium: 'Chromium',
  Firefox: 'Firefox',
  'Mobile Firefox': 'Firefox Mobile',
  Edge: 'Edge',
  IE: 'Internet Explorer',
  IEMobile: 'Mobile Internet Explorer',
  Vivaldi: 'Vivaldi',
  Brave: 'Brave',
  Safari: 'Safari',
  'Mobile Safari': 'Safari',
  Opera: 'Opera',
  'Opera Mini': 'Opera Mini',
  'Opera Mobi': 'Opera Mobile',
  'Opera Touch': 'Opera Touch',
  Yandex: 'Yandex Browser',
  UCBrowser: 'UC Browser',
  'Samsung Internet': 'Samsung Internet',
  'Samsung Browser': 'Samsung Internet',
  QQBrowser: 'QQ Browser',
  QQ: 'QQ Browser',
  BlackBerry: 'BlackBerry Browser',
  // The spec spells it so.
  Maxthon: 'Maxtho',
};

const DEVICE_NAMES: Record<string, string> = {
  mobile: 'Mobile',
  tablet: 'Tablet',
  wearable: 'Watch',
  smarttv: 'Television',
};

function osName(name: string | undefined): string | null {
  if (name === undefined) return null;
  return OS_NAMES[name] ?? (LINUX_DISTRIBUTIONS.has(name) ? 'Linux' : null);
}

function browserName(name: string | undefined, device: string): string | null {
  if (name === undefined) return null;
  const mapped = BROWSER_NAMES[name] ?? null;
  return mapped === 'Firefox' && (device === 'Mobile' || device === 'Tablet') ? 'Firefox Mobile' : mapped;
}

function languageOf(header: string | undefined): string | null {
  const code = header?.trim().slice(0, 2).toLowerCase();
  return code !== undefined && isLanguageCode(code) ? code : null;
}

function referrerHost(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  try {
    const url = new URL(header);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.slice(0, 255) : null;
  } catch {
    return null;
  }
}

/** What the User-Agent says: parsed once per distinct agent, since a few agents make most visits. */
interface AgentProfile {
  os: string | null;
  browser: string | null;
  device: string;
  bot: boolean;
  /** The profile made last with this agent, and the rest of what it was made of. */
  last: RememberedVisitor | null;
}

/** What decides a profile besides the agent: the place and headers as kept, and whether the visitor opted out. */
interface RememberedVisitor {
  optedOut: boolean;
  country: string | null;
  city: string | null;
  acceptLanguage: string | undefined;
  referer: string | undefined;
  profile: VisitorProfile;
}

/** The most header text a profile is remembered with: longer referrers and languages are profiled each time. */
const REMEMBERED_HEADERS_LENGTH = 1024;

const AGENT_MEMO_SIZE = 1000;
const agents = new Map<string, AgentProfile>();

function agentProfile(userAgent: string): AgentProfile {
  const known = agents.get(userAgent);
  if (known !== undefined) return known;
  const parsed = new UAParser(userAgent).getResult();
  const device = DEVICE_NAMES[parsed.device.type ?? ''] ?? 'Desktop';
  const profile = {
    os: osName(parsed.os.name),
    browser: browserName(parsed.browser.name, device),
    device,
    // No user agent at all is a script, not a person.
    bot: userAgent === '' || isbot(userAgent),
    last: null,
  };
  // Bounded: a flood of made-up agents replaces the memo rather than growing it.
  if (agents.size >= AGENT_MEMO_SIZE) agents.clear();
  if (userAgent.length <= 512) agents.set(userAgent, profile);
  return profile;
}

/** What a User-Agent says as a live visit reads it: for visits recorded elsewhere (an import) to match ours. */
export function agentOf(userAgent: string): {
  browser: string | null;
  os: string | null;
  device: string;
  bot: boolean;
} {
  const { browser, os, device, bot } = agentProfile(userAgent);
  return { browser, os, device, bot };
}

/**
 * The visitor's profile, from request headers and the place of the client address, with the referrer and city left
 * out where `policy` says so. A visitor like the last one of the same agent (same place, language and referrer as
 * kept, and the same choice about tracking) gets the same object, so that a batch of clicks names each distinct
 * profile once: a profile is never changed once made, and never handed to a visitor who chose otherwise.
 */
export function profileVisitor(request: VisitorRequest, policy: TrackingPolicy): VisitorProfile {
  const agent = agentProfile(request.userAgent ?? '');
  const optedOut = request.doNotTrack && policy.honorDoNotTrack;
  const referer = optedOut || !policy.trackReferrer ? undefined : request.referer;
  const city = optedOut || !policy.trackCity ? null : request.place.city;
  const { country } = request.place;
  const last = agent.last;
  if (
    last !== null &&
    last.optedOut === optedOut &&
    last.country === country &&
    last.city === city &&
    last.acceptLanguage === request.acceptLanguage &&
    last.referer === referer
  ) {
    return last.profile;
  }
  const profile: VisitorProfile = {
    country,
    city,
    continent: country === null ? null : continentOf(country),
    os: agent.os,
    browser: agent.browser,
    device: agent.device,
    language: languageOf(request.acceptLanguage),
    referrer: referrerHost(referer),
    bot: agent.bot,
  };
  if ((request.acceptLanguage?.length ?? 0) + (referer?.length ?? 0) <= REMEMBERED_HEADERS_LENGTH) {
    agent.last = { optedOut, country, city, acceptLanguage: request.acceptLanguage, referer, profile };
  }
  return profile;
}
