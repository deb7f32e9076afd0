import type { Messages } from './en';

/** The visitor pages' texts in German. */
export const de: Messages = {
  continue: 'Weiter',
  backTo: 'Zurück zu {host}',
  leaveTo: 'Jetzt nicht: zu {domain}',
  homeLink: 'Zu {domain}',
  leadsTo: 'Dieser Link auf {domain} führt zu {host}.',
  leadsToSeveral: 'Dieser Link auf {domain} führt zu einer von mehreren Websites.',

  notFoundTitle: 'Link nicht gefunden',
  notFoundText:
    'Unter dieser Adresse gibt es keinen Link. Prüfen Sie die Adresse auf Tippfehler oder fragen Sie die Person, die sie geteilt hat, nach der richtigen.',

  expiredTitle: 'Dieser Link ist abgelaufen',
  expiredText:
    'Sein aktiver Zeitraum ist vorbei oder seine Höchstzahl an Besuchen erreicht; er führt nirgendwo mehr hin.',
  expiredNext: 'Bitten Sie die Person, die ihn geteilt hat, um einen Link, der noch funktioniert.',

  passwordTitle: 'Passwort erforderlich',
  passwordHeading: 'Dieser Link ist geschützt',
  passwordText: 'Geben Sie das Passwort dieses Links ein, um fortzufahren.',
  passwordLabel: 'Passwort',
  passwordWrong: 'Das Passwort ist nicht richtig. Versuchen Sie es noch einmal.',
  passwordFirst: 'Geben Sie zuerst das Passwort ein.',

  statsPasswordHeading: 'Diese Statistik ist geschützt',
  statsPasswordText:
    'Geben Sie das Statistik-Passwort dieses Links ein. Es ist nicht das Passwort, das den Link selbst öffnet.',
  statsPasswordLabel: 'Statistik-Passwort',
  statsPasswordSubmit: 'Statistik anzeigen',

  consentTitle: 'Heikler Inhalt',
  consentHeading: 'Achtung, heikler Inhalt',
  consentText:
    'Die Seite hinter diesem Link kann heikle Inhalte enthalten, die manche Menschen anstößig oder verstörend finden.',
  consentContinue: 'Verstanden, weiter',

  redirectingTitle: 'Weiterleitung',
  redirectingHeading: 'Weiterleitung…',
  redirectingText: 'Sie werden zu {destination} weitergeleitet.',
  redirectingHelp: 'Wenn nichts passiert, folgen Sie dem Link oben.',

  previewTitle: 'Vorschau von {alias}',
  previewHeading: 'Linkvorschau',
  previewShortLink: 'Kurzlink',
  previewLinkTitle: 'Titel',
  previewDestination: 'Ziel',
  previewStatus: 'Zustand',
  previewNoTitle: 'Kein Titel',
  previewHidden:
    'Eine Seite auf {host}. Die vollständige Adresse ist verborgen: Dieser Link hat ein Passwort.',
  previewNote: 'Diese Vorschau zählt nicht als Besuch.',
  statusActive: 'Aktiv',
  statusExpired: 'Abgelaufen',
  continueTo: 'Weiter zu {host}',

  rootText:
    '{domain} stellt Kurzlinks bereit. Diese Adresse hat keine eigene Seite: Öffnen Sie einen Kurzlink, um zu seinem Ziel zu gelangen.',
  rootManage: 'Kurzlinks anlegen und verwalten:',
  rootDashboard: 'Dashboard öffnen',
  rootDocs: 'API-Dokumentation lesen',

  privateTitle: 'Private Statistik',
  privateText: 'Die Statistik dieses Links ist privat.',
  privateNext: 'Nur die Person, der der Link gehört, kann sie sehen.',

  tooManyAttemptsTitle: 'Zu viele Versuche',
  tooManyAttemptsText: 'Aus diesem Netzwerk wurde zu oft ein falsches Passwort eingegeben.',
  tooManyAttemptsNext:
    'Warten Sie {wait}, bevor Sie es erneut versuchen. Wenn Sie das Passwort nicht kennen, fragen Sie die Person, die den Link geteilt hat.',
  tooManyRequestsTitle: 'Zu viele Anfragen',
  tooManyRequestsText: 'Aus diesem Netzwerk wurden mehr Links geöffnet, als ein Mensch öffnen würde.',
  tooManyRequestsNext: 'Warten Sie {wait} und öffnen Sie den Link dann erneut.',

  queryTooLongTitle: 'Adresse zu lang',
  queryTooLongText: 'Diese Adresse enthält mehr Abfrageparameter, als ein Kurzlink weitergibt.',
  queryTooLongNext: 'Öffnen Sie den Link erneut ohne die Parameter, die angehängt wurden.',
  qrRefusedTitle: 'QR-Code nicht verfügbar',
  qrRefusedText:
    'Diese Adresse verlangt einen QR-Code, der so nicht gezeichnet werden kann. Prüfen Sie diese Parameter: {fields}.',
  qrRefusedNext:
    'Das Format ist svg oder png, die Größe {min} bis {max} Pixel, die Farben sechs Hexadezimalziffern (1a2b3c) und der Rand 0 bis 16 Module.',

  statsTitle: 'Statistik von {name}',
  statsKicker: 'Linkstatistik',
  statsRange: 'Zeitraum',
  range7: '7 Tage',
  range30: '30 Tage',
  range90: '90 Tage',
  rangeAll: 'Gesamte Zeit',
  clicks_one: '{count} Klick',
  clicks_other: '{count} Klicks',
  statsTotal: '{clicks} vom {from} bis {to} (UTC)',
  chartHeading: 'Klicks im Zeitverlauf',
  chartPeak: 'Am meisten: {when}, mit {clicks}.',
  chartEmpty: 'Keine Klicks in diesem Zeitraum.',
  chartTable: 'Zahlen anzeigen',
  columnHour: 'Stunde (UTC)',
  columnDay: 'Tag',
  columnMonth: 'Monat',
  columnYear: 'Jahr',
  columnClicks: 'Klicks',
  referrers: 'Verweisende Seiten',
  countries: 'Länder',
  continents: 'Kontinente',
  browsers: 'Browser',
  operatingSystems: 'Betriebssysteme',
  devices: 'Geräte',
  languages: 'Sprachen',
  mapHeading: 'Besuche nach Land',
  mapLegend: 'Klicks',
  mapNone: 'Keine',
  columnCountry: 'Land',
  direct: 'Direkt',
  unknown: 'Unbekannt',
  noClicks: 'Noch keine Klicks',
  geoCredit: 'IP-Geolokalisierung von {source}.',

  deviceDesktop: 'Computer',
  deviceMobile: 'Smartphone',
  deviceTablet: 'Tablet',
  deviceWatch: 'Uhr',
  deviceTelevision: 'Fernseher',

  continentAF: 'Afrika',
  continentAN: 'Antarktis',
  continentAS: 'Asien',
  continentEU: 'Europa',
  continentNA: 'Nordamerika',
  continentOC: 'Ozeanien',
  continentSA: 'Südamerika',
};
