import { fbDemoGrants, fbPages, fbUsers, igUsers } from './facebook/facebook.fixtures';
import { googleDemoGrants, locationFixtures } from './google/google.fixtures';

/** What a Google consent left, and the listing the demo store runs from it. */
export type SandboxGoogleGrant = {
  /** The Google user's e-mail, which is also the demo store's login. */
  email: string;
  refreshToken: string;
  scope: string;
  location: {
    id: string;
    title: string;
    postalCode: string | null;
    addressLines: readonly string[];
    storeCode: string | null;
  };
};

/** What a Facebook login and a page choice left, with the Page's Instagram account if any. */
export type SandboxFacebookGrant = {
  /** The Facebook user's e-mail, which is also the demo store's login. */
  email: string;
  userId: string;
  /** Long-lived and, in the sandbox, never expiring (facebook.fixtures.ts). */
  userToken: string;
  page: { id: string; name: string; token: string };
  instagram: { id: string; username: string } | null;
};

export type SandboxDemoGrants = {
  google: readonly SandboxGoogleGrant[];
  facebook: readonly SandboxFacebookGrant[];
};

const googleGrants = googleDemoGrants.map((g): SandboxGoogleGrant => {
  const fixture = locationFixtures().find((l) => l.id === g.locationId);
  if (!fixture) throw new Error(`demo grant: no location ${g.locationId}`);
  const l = fixture.location as {
    title: string;
    storeCode?: string;
    storefrontAddress?: { postalCode?: string; addressLines?: string[] };
  };
  return {
    email: g.email,
    refreshToken: g.refreshToken,
    scope: g.scope,
    location: {
      id: g.locationId,
      title: l.title,
      postalCode: l.storefrontAddress?.postalCode ?? null,
      addressLines: l.storefrontAddress?.addressLines ?? [],
      storeCode: l.storeCode ?? null,
    },
  };
});

const facebookGrants = fbDemoGrants.flatMap((g): SandboxFacebookGrant[] => {
  const user = fbUsers.find((u) => u.id === g.userId);
  return Object.entries(g.pageTokens).map(([pageId, token]) => {
    const page = fbPages.find((p) => p.id === pageId);
    const ig = page?.igId ? igUsers.find((u) => u.id === page.igId) : undefined;
    if (!user || !page) throw new Error(`demo grant: no user ${g.userId} or page ${pageId}`);
    return {
      email: user.email,
      userId: g.userId,
      userToken: g.userToken,
      page: { id: page.id, name: page.name, token },
      instagram: ig ? { id: ig.id, username: ig.username } : null,
    };
  });
});

/**
 * The grants the emulators hold for the demo stores from their first start, and again after
 * every reset (README "Seeded grants"). The composition root hands them to the demo seed so
 * the demo stores are connected for real in sandbox mode.
 */
export const sandboxDemoGrants: SandboxDemoGrants = Object.freeze({
  google: Object.freeze(googleGrants),
  facebook: Object.freeze(facebookGrants),
});
