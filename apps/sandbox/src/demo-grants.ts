import { fbDemoGrants, fbPages, fbUsers, igUsers } from './facebook/facebook.fixtures';
import { googleDemoGrants, googleUsers, locationFixtures } from './google/google.fixtures';

/**
 * What a Google consent left, and the listing one demo store runs from it. Stores of one
 * company share their Google user, so several entries carry the same e-mail and refresh token.
 */
export type SandboxGoogleGrant = {
  /** The demo store's login. */
  store: string;
  /** The Google user's e-mail (the shop's and the trial's are their logins as well). */
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

const googleGrants = googleDemoGrants.flatMap((g) => {
  const user = googleUsers.find((u) => u.email === g.email);
  const reach = user ? [user.accountId, ...(user.groups ?? []).map((a) => a.accountId)] : [];
  return g.stores.map((s): SandboxGoogleGrant => {
    const fixture = locationFixtures().find((l) => l.id === s.locationId);
    if (!fixture || !reach.includes(fixture.accountId))
      throw new Error(`demo grant: ${g.email} reaches no location ${s.locationId}`);
    const l = fixture.location as {
      title: string;
      storeCode?: string;
      storefrontAddress?: { postalCode?: string; addressLines?: string[] };
    };
    return {
      store: s.store,
      email: g.email,
      refreshToken: g.refreshToken,
      scope: g.scope,
      location: {
        id: s.locationId,
        title: l.title,
        postalCode: l.storefrontAddress?.postalCode ?? null,
        addressLines: l.storefrontAddress?.addressLines ?? [],
        storeCode: l.storeCode ?? null,
      },
    };
  });
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
