import type { Messages } from './en';

/** The visitor pages' texts in Spanish. */
export const es: Messages = {
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
  rootManage: 'Para crear y gestionar enlaces cortos:',
  rootDashboard: 'Abrir el panel',
  rootDocs: 'Leer la documentación de la API',

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
  mapHeading: 'Visitas por país',
  mapLegend: 'Clics',
  mapNone: 'Ninguno',
  columnCountry: 'País',
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
