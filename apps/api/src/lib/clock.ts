/** Time source, injectable so tests can move past an expiry without sleeping. */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

export const iso = (d: Date): string => d.toISOString();

export const addMs = (d: Date, ms: number): Date => new Date(d.getTime() + ms);

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
