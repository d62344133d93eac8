// Small inline icons (no icon font, nothing fetched). Decorative: the control around them carries the label.
const base = { width: 22, height: 22, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true } as const;

export const HomeIcon = () => (<svg {...base}><path d="M3 11l9-8 9 8" /><path d="M5 10v10h14V10" /></svg>);
export const StoreIcon = () => (<svg {...base}><path d="M4 7h16l-1 13H5L4 7z" /><path d="M9 7V5a3 3 0 016 0v2" /></svg>);
export const LibraryIcon = () => (<svg {...base}><rect x="3" y="4" width="6" height="16" rx="1" /><rect x="11" y="4" width="4" height="16" rx="1" /><path d="M17 5l3 15" /></svg>);
export const NewsIcon = () => (<svg {...base}><rect x="3" y="4" width="18" height="16" rx="2" /><path d="M7 8h10M7 12h10M7 16h6" /></svg>);
export const SupportIcon = () => (<svg {...base}><circle cx="12" cy="12" r="9" /><path d="M9.5 9.5a2.5 2.5 0 114 2c-1 .6-1.5 1.2-1.5 2.5" /><path d="M12 17h.01" /></svg>);
export const ProfileIcon = () => (<svg {...base}><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0116 0" /></svg>);
export const CartIcon = () => (<svg {...base}><circle cx="9" cy="20" r="1.5" /><circle cx="18" cy="20" r="1.5" /><path d="M2 3h3l2.5 12h12l2-8H6.2" /></svg>);
export const SearchIcon = () => (<svg {...base}><circle cx="11" cy="11" r="7" /><path d="M20 20l-4-4" /></svg>);
export const MenuIcon = () => (<svg {...base}><path d="M4 6h16M4 12h16M4 18h16" /></svg>);
export const CloseIcon = () => (<svg {...base}><path d="M6 6l12 12M18 6L6 18" /></svg>);
export const BellIcon = () => (<svg {...base}><path d="M6 8a6 6 0 0112 0c0 7 3 9 3 9H3s3-2 3-9" /><path d="M10.3 21a1.94 1.94 0 003.4 0" /></svg>);
export const HeartIcon = () => (<svg {...base}><path d="M12 20s-7-4.4-9-9a4.8 4.8 0 019-3 4.8 4.8 0 019 3c-2 4.6-9 9-9 9z" /></svg>);
