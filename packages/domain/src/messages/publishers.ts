/** The channels' names where the screens spell them out (spec 1 §3's publisher list). */
export const publisherNames = {
  google_my_business: 'Google ビジネスプロフィール',
  twitter: 'X（旧 Twitter）',
} as const;
