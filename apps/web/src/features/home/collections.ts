/** A themed shelf of the home carousel: a title, a few real games as examples, and the store view that holds them. */
export interface Collection {
  title: string;
  description: string;
  /** The store with the filter, search or sort that lists the collection. */
  to: string;
  /** Two colours of the slide's backdrop; dark enough for white text to stay readable. */
  colors: readonly [string, string];
}

/** The ten static collections of SPEC §2 (Home); each link was checked against the demo catalogue to list something. */
export const COLLECTIONS: readonly Collection[] = [
  {
    title: 'Beer & boss fights',
    description: 'Crack open a cold one, then get flattened by Elden Ring, Sekiro: Shadows Die Twice, Dark Souls III and Black Myth: Wukong.',
    to: '/store?genre=Action',
    colors: ['#5b1a1a', '#2a0f2e'],
  },
  {
    title: 'Pay to die',
    description: 'You paid for it, now perish in it: Dead Cells, Dead Space and Red Dead Redemption 2 all end the same way. Respawn, repeat.',
    to: '/store?search=dead',
    colors: ['#3a1c4f', '#14141f'],
  },
  {
    title: "Co-op or it didn't happen",
    description: 'Bring a friend or bring nothing: It Takes Two, A Way Out, Sea of Thieves and Grounded only make sense with two.',
    to: '/store?genre=Adventure',
    colors: ['#0f4a45', '#12233a'],
  },
  {
    title: 'One more turn, I promise',
    description: "It is 3 a.m. and Sid Meier's Civilization VI, Crusader Kings III, Stellaris and XCOM 2 say you can still win this.",
    to: '/store?genre=Strategy',
    colors: ['#4a3410', '#1e1a2e'],
  },
  {
    title: 'Dice rolls and bad decisions',
    description: "Party banter, failed persuasion checks and a bear romance: Baldur's Gate 3, Divinity: Original Sin 2, Disco Elysium and The Witcher 3.",
    to: '/store?genre=RPG',
    colors: ['#2d2366', '#151528'],
  },
  {
    title: 'Touch grass (on a screen)',
    description: 'The pitch, the court and the track without leaving the sofa: EA Sports FC 25, NBA 2K25, F1 24 and Football Manager 2024.',
    to: '/store?genre=Sports',
    colors: ['#174a1f', '#10221c'],
  },
  {
    title: 'Couch, controller, PS5',
    description: "Big-screen exclusives worth clearing the weekend for: God of War Ragnarök, Marvel's Spider-Man 2, Astro Bot and Gran Turismo 7.",
    to: '/store?platform=PS5',
    colors: ['#103a6b', '#111a33'],
  },
  {
    title: 'Gift cards for the indecisive',
    description: 'Not sure what they play? PlayStation Store, Xbox and Steam gift cards let them pick their own poison.',
    to: '/store?category=Gift%20Cards',
    colors: ['#5a1d45', '#1f1330'],
  },
  {
    title: 'Just one more expansion',
    description: 'Finished the game? Not quite: Cyberpunk 2077: Phantom Liberty, Elden Ring: Shadow of the Erdtree and The Witcher 3: Blood and Wine.',
    to: '/store?category=DLC',
    colors: ['#1d4350', '#1a1a2e'],
  },
  {
    title: 'Cheap thrills',
    description: 'Classics for less than a sandwich: Portal 2, Metro 2033 Redux, Fallout 2 and The Witcher: Enhanced Edition.',
    to: '/store?sort=price-asc',
    colors: ['#4d3b12', '#1b1f2e'],
  },
];
