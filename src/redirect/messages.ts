/**
 * Every text of the visitor pages, in each language they are offered in. `{name}` is a value the page fills in;
 * keys ending in `_one` and `_other` are the plural forms of one message.
 */
const en = {
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

const es: Messages = {
  continue: 'Continuar',
  backTo: 'Volver a {host}',
  leaveTo: 'Ahora no: ir a {domain}',
  homeLink: 'Ir a {domain}',
  leadsTo: 'Este enlace de {domain} lleva a {host}.',
  leadsToSeveral: 'Este enlace de {domain} lleva a uno de varios sitios.',

  notFoundTitle: 'Enlace no encontrado',
  notFoundText:
    'No hay ningún enlace en esta dirección. Comprueba que esté bien escrita o pide la correcta a quien la compartió.',

  expiredTitle: 'Este enlace ha caducado',
  expiredText:
    'Ha llegado al final de su periodo activo o a su límite de visitas y ya no lleva a ninguna parte.',
  expiredNext: 'Pide a quien lo compartió un enlace que siga funcionando.',

  passwordTitle: 'Contraseña necesaria',
  passwordHeading: 'Este enlace está protegido',
  passwordText: 'Introduce la contraseña de este enlace para continuar.',
  passwordLabel: 'Contraseña',
  passwordWrong: 'La contraseña no es correcta. Inténtalo de nuevo.',
  passwordFirst: 'Introduce primero la contraseña.',

  statsPasswordHeading: 'Estas estadísticas están protegidas',
  statsPasswordText:
    'Introduce la contraseña de las estadísticas de este enlace. No es la contraseña que abre el enlace.',
  statsPasswordLabel: 'Contraseña de las estadísticas',
  statsPasswordSubmit: 'Ver las estadísticas',

  consentTitle: 'Contenido sensible',
  consentHeading: 'Aviso de contenido sensible',
  consentText:
    'La página de este enlace puede tener contenido sensible que algunas personas consideran ofensivo o perturbador.',
  consentContinue: 'Lo entiendo, continuar',

  redirectingTitle: 'Redirigiendo',
  redirectingHeading: 'Redirigiendo…',
  redirectingText: 'Te estamos llevando a {destination}.',
  redirectingHelp: 'Si no ocurre nada, sigue el enlace de arriba.',

  previewTitle: 'Vista previa de {alias}',
  previewHeading: 'Vista previa del enlace',
  previewShortLink: 'Enlace corto',
  previewLinkTitle: 'Título',
  previewDestination: 'Destino',
  previewStatus: 'Estado',
  previewNoTitle: 'Sin título',
  previewHidden: 'Una página de {host}. La dirección completa está oculta: este enlace tiene contraseña.',
  previewNote: 'Esta vista previa no cuenta como visita.',
  statusActive: 'Activo',
  statusExpired: 'Caducado',
  continueTo: 'Continuar a {host}',

  rootText:
    '{domain} sirve enlaces cortos. Esta dirección no tiene página propia: abre un enlace corto para ir a su destino.',

  privateTitle: 'Estadísticas privadas',
  privateText: 'Las estadísticas de este enlace son privadas.',
  privateNext: 'Solo la persona propietaria del enlace puede verlas.',

  tooManyAttemptsTitle: 'Demasiados intentos',
  tooManyAttemptsText: 'Se ha introducido una contraseña incorrecta demasiadas veces desde esta red.',
  tooManyAttemptsNext:
    'Espera {wait} antes de volver a intentarlo. Si no conoces la contraseña, pídela a quien compartió el enlace.',
  tooManyRequestsTitle: 'Demasiadas solicitudes',
  tooManyRequestsText: 'Desde esta red se han abierto más enlaces de los que abriría una persona.',
  tooManyRequestsNext: 'Espera {wait} y vuelve a abrir el enlace.',

  queryTooLongTitle: 'Dirección demasiado larga',
  queryTooLongText: 'Esta dirección lleva más parámetros de consulta de los que un enlace corto transmite.',
  queryTooLongNext: 'Vuelve a abrir el enlace sin los parámetros que se le añadieron.',
  qrRefusedTitle: 'Código QR no disponible',
  qrRefusedText:
    'Esta dirección pide un código QR que no se puede dibujar. Revisa estos parámetros: {fields}.',
  qrRefusedNext:
    'El formato es svg o png, el tamaño de {min} a {max} píxeles, los colores seis dígitos hexadecimales (1a2b3c) y el margen de 0 a 16 módulos.',

  statsTitle: 'Estadísticas de {name}',
  statsKicker: 'Estadísticas del enlace',
  statsRange: 'Periodo',
  range7: '7 días',
  range30: '30 días',
  range90: '90 días',
  rangeAll: 'Todo',
  clicks_one: '{count} clic',
  clicks_other: '{count} clics',
  statsTotal: '{clicks} del {from} al {to} (UTC)',
  chartHeading: 'Clics a lo largo del tiempo',
  chartPeak: 'El máximo: {when}, con {clicks}.',
  chartEmpty: 'Ningún clic en este periodo.',
  chartTable: 'Ver las cifras',
  columnHour: 'Hora (UTC)',
  columnDay: 'Día',
  columnMonth: 'Mes',
  columnYear: 'Año',
  columnClicks: 'Clics',
  referrers: 'Referentes',
  countries: 'Países',
  continents: 'Continentes',
  browsers: 'Navegadores',
  operatingSystems: 'Sistemas operativos',
  devices: 'Dispositivos',
  languages: 'Idiomas',
  direct: 'Directo',
  unknown: 'Desconocido',
  noClicks: 'Todavía no hay clics',
  geoCredit: 'Geolocalización IP de {source}.',

  deviceDesktop: 'Ordenador',
  deviceMobile: 'Móvil',
  deviceTablet: 'Tableta',
  deviceWatch: 'Reloj',
  deviceTelevision: 'Televisor',

  continentAF: 'África',
  continentAN: 'Antártida',
  continentAS: 'Asia',
  continentEU: 'Europa',
  continentNA: 'América del Norte',
  continentOC: 'Oceanía',
  continentSA: 'América del Sur',
};

const fr: Messages = {
  continue: 'Continuer',
  backTo: 'Revenir à {host}',
  leaveTo: 'Pas maintenant : aller sur {domain}',
  homeLink: 'Aller sur {domain}',
  leadsTo: 'Ce lien de {domain} mène à {host}.',
  leadsToSeveral: 'Ce lien de {domain} mène à l’un de plusieurs sites.',

  notFoundTitle: 'Lien introuvable',
  notFoundText:
    'Aucun lien ne se trouve à cette adresse. Vérifiez qu’elle ne contient pas de faute de frappe, ou demandez la bonne à la personne qui l’a partagée.',

  expiredTitle: 'Ce lien a expiré',
  expiredText:
    'Il a atteint la fin de sa période active ou sa limite de visites, et ne mène plus nulle part.',
  expiredNext: 'Demandez un lien valide à la personne qui l’a partagé.',

  passwordTitle: 'Mot de passe requis',
  passwordHeading: 'Ce lien est protégé',
  passwordText: 'Saisissez le mot de passe de ce lien pour continuer.',
  passwordLabel: 'Mot de passe',
  passwordWrong: 'Ce mot de passe n’est pas le bon. Réessayez.',
  passwordFirst: 'Saisissez d’abord le mot de passe.',

  statsPasswordHeading: 'Ces statistiques sont protégées',
  statsPasswordText:
    'Saisissez le mot de passe des statistiques de ce lien. Ce n’est pas le mot de passe qui ouvre le lien lui-même.',
  statsPasswordLabel: 'Mot de passe des statistiques',
  statsPasswordSubmit: 'Voir les statistiques',

  consentTitle: 'Contenu sensible',
  consentHeading: 'Attention, contenu sensible',
  consentText:
    'La page derrière ce lien peut contenir un contenu sensible que certaines personnes trouvent choquant ou dérangeant.',
  consentContinue: 'J’ai compris, continuer',

  redirectingTitle: 'Redirection',
  redirectingHeading: 'Redirection…',
  redirectingText: 'Vous êtes redirigé vers {destination}.',
  redirectingHelp: 'Si rien ne se passe, suivez le lien ci-dessus.',

  previewTitle: 'Aperçu de {alias}',
  previewHeading: 'Aperçu du lien',
  previewShortLink: 'Lien court',
  previewLinkTitle: 'Titre',
  previewDestination: 'Destination',
  previewStatus: 'État',
  previewNoTitle: 'Sans titre',
  previewHidden: 'Une page de {host}. L’adresse complète est masquée : ce lien a un mot de passe.',
  previewNote: 'Cet aperçu ne compte pas comme une visite.',
  statusActive: 'Actif',
  statusExpired: 'Expiré',
  continueTo: 'Continuer vers {host}',

  rootText:
    '{domain} sert des liens courts. Cette adresse n’a pas de page à elle : ouvrez un lien court pour aller là où il mène.',

  privateTitle: 'Statistiques privées',
  privateText: 'Les statistiques de ce lien sont privées.',
  privateNext: 'Seul le propriétaire du lien peut les voir.',

  tooManyAttemptsTitle: 'Trop de tentatives',
  tooManyAttemptsText: 'Un mauvais mot de passe a été saisi trop de fois depuis ce réseau.',
  tooManyAttemptsNext:
    'Attendez {wait} avant de réessayer. Si vous ne connaissez pas le mot de passe, demandez-le à la personne qui a partagé le lien.',
  tooManyRequestsTitle: 'Trop de requêtes',
  tooManyRequestsText: 'Ce réseau a ouvert plus de liens qu’une personne ne le ferait.',
  tooManyRequestsNext: 'Attendez {wait}, puis ouvrez le lien à nouveau.',

  queryTooLongTitle: 'Adresse trop longue',
  queryTooLongText: 'Cette adresse porte plus de paramètres de requête qu’un lien court n’en transmet.',
  queryTooLongNext: 'Ouvrez le lien à nouveau sans les paramètres qui y ont été ajoutés.',
  qrRefusedTitle: 'Code QR indisponible',
  qrRefusedText:
    'Cette adresse demande un code QR qui ne peut pas être dessiné. Vérifiez ces paramètres : {fields}.',
  qrRefusedNext:
    'Le format est svg ou png, la taille de {min} à {max} pixels, les couleurs six chiffres hexadécimaux (1a2b3c) et la marge de 0 à 16 modules.',

  statsTitle: 'Statistiques de {name}',
  statsKicker: 'Statistiques du lien',
  statsRange: 'Période',
  range7: '7 jours',
  range30: '30 jours',
  range90: '90 jours',
  rangeAll: 'Depuis le début',
  clicks_one: '{count} clic',
  clicks_other: '{count} clics',
  statsTotal: '{clicks} du {from} au {to} (UTC)',
  chartHeading: 'Clics dans le temps',
  chartPeak: 'Le plus actif : {when}, avec {clicks}.',
  chartEmpty: 'Aucun clic sur cette période.',
  chartTable: 'Voir les chiffres',
  columnHour: 'Heure (UTC)',
  columnDay: 'Jour',
  columnMonth: 'Mois',
  columnYear: 'Année',
  columnClicks: 'Clics',
  referrers: 'Sites référents',
  countries: 'Pays',
  continents: 'Continents',
  browsers: 'Navigateurs',
  operatingSystems: 'Systèmes d’exploitation',
  devices: 'Appareils',
  languages: 'Langues',
  direct: 'Accès direct',
  unknown: 'Inconnu',
  noClicks: 'Pas encore de clic',
  geoCredit: 'Géolocalisation IP par {source}.',

  deviceDesktop: 'Ordinateur',
  deviceMobile: 'Mobile',
  deviceTablet: 'Tablette',
  deviceWatch: 'Montre',
  deviceTelevision: 'Téléviseur',

  continentAF: 'Afrique',
  continentAN: 'Antarctique',
  continentAS: 'Asie',
  continentEU: 'Europe',
  continentNA: 'Amérique du Nord',
  continentOC: 'Océanie',
  continentSA: 'Amérique du Sud',
};

const de: Messages = {
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

export const LOCALES = ['en', 'es', 'fr', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

export const CATALOGUE: Record<Locale, Messages> = { en, es, fr, de };

/** A qvalue as RFC 9110 (12.4.2) writes it: 0 to 1, with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weight of a language range from its parameters: 1 without `q`, null when `q` is not a qvalue. */
function rangeWeight(parameters: string[]): number | null {
  const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => /^q=/i.test(parameter));
  if (quality === undefined) return 1;
  const value = quality.slice(2);
  return QVALUE.test(value) ? Number(value) : null;
}

/**
 * The visitor's language from `Accept-Language`: the offered language with the highest weight (`de-CH` counts
 * as `de`), English when none is offered or the header is missing or unreadable. A range with a weight that is not
 * a qvalue is ignored, not taken as 1.
 */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  if (acceptLanguage === undefined) return 'en';
  let best: { locale: Locale; weight: number } | null = null;
  // A bounded read: a header of hundreds of ranges is cut rather than parsed in full.
  for (const range of acceptLanguage.slice(0, 1024).split(',').slice(0, 32)) {
    const [tag, ...parameters] = range.trim().split(';');
    const language = tag.trim().toLowerCase().split('-')[0];
    const weight = rangeWeight(parameters);
    if (weight === null || weight === 0) continue;
    const locale = language === '*' ? 'en' : LOCALES.find((candidate) => candidate === language);
    if (locale !== undefined && (best === null || weight > best.weight)) best = { locale, weight };
  }
  return best?.locale ?? 'en';
}
