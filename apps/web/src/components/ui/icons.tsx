import type { SVGProps } from 'react';

/** The few line icons the screens need (no icon library: a handful of paths is all). */
const Icon = ({ d, ...p }: SVGProps<SVGSVGElement> & { d: string }) => (
  <svg
    viewBox="0 0 24 24"
    width={16}
    height={16}
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden
    {...p}
  >
    <path d={d} />
  </svg>
);

export const CheckIcon = (p: SVGProps<SVGSVGElement>) => <Icon d="M5 12l5 5L20 7" {...p} />;
export const LinkIcon = (p: SVGProps<SVGSVGElement>) => (
  <Icon
    d="M10 14a5 5 0 0 0 7 0l3-3a5 5 0 0 0-7-7l-1 1M14 10a5 5 0 0 0-7 0l-3 3a5 5 0 0 0 7 7l1-1"
    {...p}
  />
);
export const RefreshIcon = (p: SVGProps<SVGSVGElement>) => (
  <Icon d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" {...p} />
);
export const AlertIcon = (p: SVGProps<SVGSVGElement>) => (
  <Icon d="M12 3l10 18H2zM12 10v4M12 17.5v.5" {...p} />
);
export const BlockIcon = (p: SVGProps<SVGSVGElement>) => (
  <Icon d="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8" {...p} />
);
export const TrashIcon = (p: SVGProps<SVGSVGElement>) => (
  <Icon d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" {...p} />
);
