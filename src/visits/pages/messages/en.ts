/** The visitor pages' texts in English: the catalogue every other language must match, key for key. */
export const en = {
  continue: 'Continue',
  backTo: 'Back to {host}',
  leaveTo: 'Not now: go to {domain}',
  homeLink: 'Go to {domain}',
  leadsTo: 'This link on {domain} leads to {host}.',
  leadsToSeveral: 'This link on {domain} leads to one of several sites.',

  notFoundTitle: 'Link not found',
  notFoundText:
    'There is no link at this address. Check the address for typing mistakes, or ask whoever shared it for the right one.',

  expiredTitle: 'This link has expired',
  expiredText:
    'It has reached the end of its active period or its limit of visits, and no longer leads anywhere.',
  expiredNext: 'Ask whoever shared it for a link that still works.',

  passwordTitle: 'Password required',
  passwordHeading: 'This link is protected',
  passwordText: 'Enter the password of this link to continue.',
  passwordLabel: 'Password',
  passwordWrong: 'That password is not right. Try again.',
  passwordFirst: 'Enter the password first.',

  statsPasswordHeading: 'These statistics are protected',
  statsPasswordText:
    'Enter the statistics password of this link. It is not the password that opens the link itself.',
  statsPasswordLabel: 'Statistics password',
  statsPasswordSubmit: 'Show the statistics',

  consentTitle: 'Sensitive content',
  consentHeading: 'Sensitive content ahead',
  consentText:
    'The page behind this link may contain sensitive content that some people find offensive or disturbing.',
  consentContinue: 'I understand, continue',

  redirectingTitle: 'Redirecting',
  redirectingHeading: 'Redirecting…',
  redirectingText: 'You are being redirected to {destination}.',
  redirectingHelp: 'If nothing happens, follow the link above.',

  previewTitle: 'Preview of {alias}',
  previewHeading: 'Link preview',
  previewShortLink: 'Short link',
  previewLinkTitle: 'Title',
  previewDestination: 'Destination',
  previewStatus: 'Status',
  previewNoTitle: 'No title',
  previewHidden: 'A page on {host}. The full address is hidden: this link has a password.',
  previewNote: 'This preview does not count as a visit.',
  statusActive: 'Active',
  statusExpired: 'Expired',
  continueTo: 'Continue to {host}',

  rootText:
    '{domain} serves short links. This address has no page of its own: open a short link to go where it leads.',
  rootManage: 'To create and manage short links:',
  rootDashboard: 'Open the dashboard',
  rootDocs: 'Read the API documentation',

  privateTitle: 'Private statistics',
  privateText: 'The statistics of this link are private.',
  privateNext: 'Only the owner of the link can see them.',

  tooManyAttemptsTitle: 'Too many attempts',
  tooManyAttemptsText: 'A wrong password was entered too many times from this network.',
  tooManyAttemptsNext:
    'Wait {wait} before you try again. If you do not know the password, ask whoever shared the link.',
  tooManyRequestsTitle: 'Too many requests',
  tooManyRequestsText: 'This network has opened more links than a person would.',
  tooManyRequestsNext: 'Wait {wait}, then open the link again.',

  queryTooLongTitle: 'Address too long',
  queryTooLongText: 'This address carries more query parameters than a short link passes on.',
  queryTooLongNext: 'Open the link again without the parameters that were added to it.',
  qrRefusedTitle: 'QR code unavailable',
  qrRefusedText: 'This address asks for a QR code that cannot be drawn. Check these parameters: {fields}.',
  qrRefusedNext:
    'The format is svg or png, the size {min} to {max} pixels, the colours six hexadecimal digits (1a2b3c) and the margin 0 to 16 modules.',

  statsTitle: 'Statistics of {name}',
  statsKicker: 'Link statistics',
  statsRange: 'Period',
  range7: '7 days',
  range30: '30 days',
  range90: '90 days',
  rangeAll: 'All time',
  clicks_one: '{count} click',
  clicks_other: '{count} clicks',
  statsTotal: '{clicks} from {from} to {to} (UTC)',
  chartHeading: 'Clicks over time',
  chartPeak: 'The busiest: {when}, with {clicks}.',
  chartEmpty: 'No clicks in this period.',
  chartTable: 'Show the numbers',
  columnHour: 'Hour (UTC)',
  columnDay: 'Day',
  columnMonth: 'Month',
  columnYear: 'Year',
  columnClicks: 'Clicks',
  referrers: 'Referrers',
  countries: 'Countries',
  continents: 'Continents',
  browsers: 'Browsers',
  operatingSystems: 'Operating systems',
  devices: 'Devices',
  languages: 'Languages',
  mapHeading: 'Visits by country',
  mapLegend: 'Clicks',
  mapNone: 'None',
  columnCountry: 'Country',
  direct: 'Direct',
  unknown: 'Unknown',
  noClicks: 'No clicks yet',
  geoCredit: 'IP geolocation by {source}.',

  deviceDesktop: 'Desktop',
  deviceMobile: 'Mobile',
  deviceTablet: 'Tablet',
  deviceWatch: 'Watch',
  deviceTelevision: 'Television',

  continentAF: 'Africa',
  continentAN: 'Antarctica',
  continentAS: 'Asia',
  continentEU: 'Europe',
  continentNA: 'North America',
  continentOC: 'Oceania',
  continentSA: 'South America',
};

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
