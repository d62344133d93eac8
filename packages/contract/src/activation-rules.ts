// How to activate a key on each platform, and where a key works (issue 31), without zod: written once
// here, shown by the game page, the library, the claim dialog, a guest's order page and a gift's page
// (`@keystore/contract/activation-rules`).
import type { Region } from './constants.ts';

export const LAUNCHERS = ['Steam', 'GOG', 'EA app', 'Ubisoft Connect', 'Battle.net', 'Epic Games', 'Xbox', 'PlayStation', 'Nintendo', 'PC'] as const;
export type Launcher = (typeof LAUNCHERS)[number];

export interface ActivationGuide {
  launcher: Launcher;
  steps: string[];
  /** The official page where a key is redeemed (or the launcher's download page). */
  redeemUrl: string;
}

const GUIDES: Record<Launcher, Omit<ActivationGuide, 'launcher'>> = {
  Steam: {
    steps: ['Open the Steam app and sign in.', 'Choose Games › Activate a Product on Steam….', 'Enter your key and follow the prompts. The game appears in your library.'],
    redeemUrl: 'https://store.steampowered.com/account/registerkey',
  },
  GOG: {
    steps: ['Sign in at gog.com or in GOG GALAXY.', 'Open the redeem page and enter your key.', 'The game is added to your GOG library.'],
    redeemUrl: 'https://www.gog.com/redeem',
  },
  'EA app': {
    steps: ['Open the EA app and sign in with your EA account.', 'Select your profile, then Redeem code.', 'Enter your key. The game appears in your library.'],
    redeemUrl: 'https://www.ea.com/ea-app',
  },
  'Ubisoft Connect': {
    steps: ['Open Ubisoft Connect and sign in.', 'Open the menu and choose Activate key.', 'Enter your key and confirm.'],
    redeemUrl: 'https://store.ubisoft.com/',
  },
  'Battle.net': {
    steps: ['Sign in to your Battle.net account.', 'Open the redeem page (or Redeem a Code in the Battle.net app).', 'Enter your key and confirm.'],
    redeemUrl: 'https://account.battle.net/shop/redeem',
  },
  'Epic Games': {
    steps: ['Open the Epic Games Launcher and sign in.', 'Select your profile, then Redeem Code.', 'Enter your key and choose Redeem.'],
    redeemUrl: 'https://store.epicgames.com/redeem',
  },
  Xbox: {
    steps: ['Sign in with your Microsoft account on the redeem page, or on your console press the Xbox button and open Store › Redeem.', 'Enter the 25-character key.', 'Confirm; the game is yours to install.'],
    redeemUrl: 'https://redeem.microsoft.com',
  },
  PlayStation: {
    steps: ['Sign in to your PlayStation account on the redeem page, or on your console open PlayStation Store › … › Redeem Code.', 'Enter the 12-character code.', 'Confirm; the content downloads from your library.'],
    redeemUrl: 'https://store.playstation.com/redeem',
  },
  Nintendo: {
    steps: ['On your console open Nintendo eShop and select your user.', 'Choose Redeem Code (or use the redeem page on the web).', 'Enter the 16-character code and confirm.'],
    redeemUrl: 'https://ec.nintendo.com/redeem',
  },
  PC: {
    steps: [
      'Check which launcher the key is for: the product name or the key’s format tells (Steam, EA app, Ubisoft Connect, Battle.net, Epic Games or GOG).',
      'Open that launcher and sign in.',
      'Use its Redeem or Activate a Product option and enter your key.',
    ],
    redeemUrl: 'https://store.steampowered.com/account/registerkey',
  },
};

/** The launcher a platform's keys are activated in; a plain "PC" key names its launcher when the feed did. */
export function launcherOf(platform: string, feedLauncher?: string | null): Launcher {
  const named = (feedLauncher ?? '').toLowerCase();
  const text = `${named} ${platform.toLowerCase()}`;
  if (text.includes('steam')) return 'Steam';
  if (text.includes('gog')) return 'GOG';
  if (text.includes('origin') || text.includes('ea app')) return 'EA app';
  if (text.includes('ubisoft') || text.includes('uplay')) return 'Ubisoft Connect';
  if (text.includes('battle.net')) return 'Battle.net';
  if (text.includes('epic')) return 'Epic Games';
  if (text.includes('xbox')) return 'Xbox';
  if (text.includes('ps') || text.includes('playstation')) return 'PlayStation';
  if (text.includes('nintendo') || text.includes('switch') || text.includes('3ds') || text.includes('wii')) return 'Nintendo';
  return 'PC';
}

/** How to activate a key of this platform (and launcher, when the feed named one). */
export function activationFor(platform: string, feedLauncher?: string | null): ActivationGuide {
  const launcher = launcherOf(platform, feedLauncher);
  return { launcher, ...GUIDES[launcher] };
}

/** The regions the store sorts countries into (SPEC's filter), and Global, which works everywhere. */
const EUROPE = new Set('AD AL AT BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS SE SI SK SM UA VA XK GG'.split(' '));
const US = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM']);
const ASIA = new Set(
  'AE AF AM AZ BD BH BN BT CN GE HK ID IL IN IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO MV MY NP OM PH PK PS QA SA SG SY TH TJ TL TM TR TW UZ VN YE'.split(' '),
);

/** The store's region of a country (ISO 3166-1 alpha-2), or undefined for a country in none of them. */
export function regionOfCountry(country: string): Exclude<Region, 'Global'> | undefined {
  const code = country.toUpperCase();
  if (EUROPE.has(code)) return 'Europe';
  if (US.has(code)) return 'US';
  if (ASIA.has(code)) return 'Asia';
  return undefined;
}

/** "Works in: Europe" beside the game page's Region row. */
export function worksInText(region: string): string {
  return `Works in: ${region || 'Global'}`;
}

/**
 * The warning a visitor from `country` sees before adding a key of `region` to the cart, or undefined:
 * none for a Global key, nor when the country is unknown or in the key's region.
 */
export function regionWarning(region: string, country: string | null | undefined): string | undefined {
  if (!region || region === 'Global' || !country) return undefined;
  const visitor = regionOfCountry(country);
  if (visitor === region) return undefined;
  return `This key works in ${region} only. It may not activate in your region (${visitor ?? country.toUpperCase()}).`;
}
