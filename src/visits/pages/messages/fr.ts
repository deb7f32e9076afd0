import type { Messages } from './en';

/** The visitor pages' texts in French. */
export const fr: Messages = {
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
  rootManage: 'Pour créer et gérer des liens courts :',
  rootDashboard: 'Ouvrir le tableau de bord',
  rootDocs: 'Lire la documentation de l’API',

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
  mapHeading: 'Visites par pays',
  mapLegend: 'Clics',
  mapNone: 'Aucun',
  columnCountry: 'Pays',
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
