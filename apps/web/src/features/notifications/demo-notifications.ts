import type { Notification } from '@keystore/contract';

/** SPEC §7: shown to visitors when the public list cannot be fetched (never stored on the server). */
export const DEMO_NOTIFICATIONS: readonly Notification[] = [
  {
    _id: 'demo-welcome',
    title: 'Welcome to Keystore!',
    text: 'Browse thousands of game keys and get yours delivered instantly to your library.',
    generatedAt: '2026-01-01T09:00:00.000Z',
    rawTimestamp: Date.parse('2026-01-01T09:00:00.000Z'),
    isRead: false,
    isPublic: true,
    link: '/store',
  },
  {
    _id: 'demo-support-hours',
    title: 'Support hours',
    text: 'Our support team answers from 10:00 to 22:00 UK time, usually within 24 hours.',
    generatedAt: '2026-01-01T08:00:00.000Z',
    rawTimestamp: Date.parse('2026-01-01T08:00:00.000Z'),
    isRead: false,
    isPublic: true,
    link: '/support',
  },
];
