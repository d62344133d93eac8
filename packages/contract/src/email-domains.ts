// The e-mail domains the store accepts (SPEC §5): a list of recognized providers (free-mail and large
// companies) and the suffixes of institutions and countries. Shared by the dialogs and the server.

/** Free-mail providers and large companies whose addresses are accepted as they are. */
export const RECOGNIZED_EMAIL_PROVIDERS: ReadonlySet<string> = new Set([
  // free mail, worldwide
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com',
  'rocketmail.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'pm.me',
  'zoho.com', 'zohomail.com', 'gmx.com', 'gmx.net', 'mail.com', 'tutanota.com', 'tuta.io', 'tutamail.com',
  'fastmail.com', 'fastmail.fm', 'hey.com', 'yandex.com', 'mailfence.com', 'posteo.net', 'runbox.com',
  'hushmail.com', 'inbox.com', 'mail2world.com', 'duck.com', 'skiff.com', 'startmail.com',
  // free mail, by country
  'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.it', 'hotmail.es', 'outlook.de', 'outlook.fr',
  'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.it', 'yahoo.es', 'yahoo.co.jp', 'yahoo.com.br', 'yahoo.ca',
  'live.co.uk', 'live.fr', 'live.de', 'btinternet.com', 'sky.com', 'virginmedia.com', 'talktalk.net',
  'gmx.de', 'gmx.at', 'gmx.ch', 'web.de', 't-online.de', 'freenet.de', 'arcor.de', 'orange.fr', 'free.fr',
  'laposte.net', 'sfr.fr', 'wanadoo.fr', 'libero.it', 'virgilio.it', 'tiscali.it', 'alice.it', 'wp.pl',
  'o2.pl', 'onet.pl', 'interia.pl', 'op.pl', 'seznam.cz', 'centrum.cz', 'azet.sk', 'mail.ru', 'inbox.ru',
  'list.ru', 'bk.ru', 'yandex.ru', 'rambler.ru', 'ukr.net', 'i.ua', 'abv.bg', 'naver.com', 'daum.net',
  'hanmail.net', 'qq.com', '163.com', '126.com', 'sina.com', 'sohu.com', 'rediffmail.com', 'bol.com.br',
  'uol.com.br', 'terra.com.br', 'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net', 'cox.net',
  'charter.net', 'earthlink.net', 'optonline.net', 'shaw.ca', 'rogers.com', 'bigpond.com', 'optusnet.com.au',
  'xtra.co.nz', 'telenet.be', 'skynet.be', 'ziggo.nl', 'kpnmail.nl', 'bluewin.ch', 'telia.com', 'online.no',
  // large companies
  'google.com', 'microsoft.com', 'apple.com', 'amazon.com', 'meta.com', 'ibm.com', 'intel.com', 'oracle.com',
  'sony.com', 'nintendo.com', 'valvesoftware.com', 'ea.com', 'ubisoft.com', 'epicgames.com', 'nvidia.com',
  'amd.com', 'samsung.com', 'cisco.com', 'salesforce.com', 'adobe.com', 'netflix.com', 'spotify.com',
]);

/** Domain endings accepted from anyone: institutions and country codes. */
export const RECOGNIZED_EMAIL_SUFFIXES: readonly string[] = [
  'edu', 'org', 'gov', 'mil', 'int', 'ac.uk', 'gov.uk', 'nhs.uk', 'edu.au', 'gov.au',
  // countries
  'uk', 'ie', 'de', 'at', 'ch', 'fr', 'be', 'nl', 'lu', 'it', 'es', 'pt', 'pl', 'cz', 'sk', 'hu', 'ro', 'bg',
  'gr', 'cy', 'mt', 'si', 'hr', 'rs', 'ba', 'me', 'mk', 'al', 'se', 'no', 'dk', 'fi', 'is', 'ee', 'lv', 'lt',
  'ua', 'md', 'ge', 'am', 'tr', 'il', 'ca', 'us', 'mx', 'br', 'ar', 'cl', 'co', 'pe', 'uy', 'au', 'nz', 'jp',
  'kr', 'cn', 'tw', 'hk', 'sg', 'my', 'th', 'vn', 'ph', 'id', 'in', 'za', 'ng', 'ke', 'eg', 'ma', 'ae', 'sa',
];

/** Whether the store accepts addresses at `domain` (lowercase, without the '@'). */
export function isRecognizedEmailDomain(domain: string): boolean {
  if (RECOGNIZED_EMAIL_PROVIDERS.has(domain)) return true;
  return RECOGNIZED_EMAIL_SUFFIXES.some((suffix) => domain.endsWith(`.${suffix}`));
}
