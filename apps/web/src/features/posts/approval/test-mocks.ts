import type { ApprovalSettingsView, Page, PostApprovalItemView } from '@tenpo/domain';

// Tests only (no screen imports it): the answers of posts' approval (ADR 0095) that /posts
// and the post form read on every visit, for tables of `mockApi` that are about something else.

const emptyPage: Page<PostApprovalItemView> = {
  data: [],
  current_page: 1,
  last_page: 1,
  total: 0,
  per_page: 10,
  from: null,
  to: null,
};

export const approvalSettings = (
  over: Partial<ApprovalSettingsView> = {},
): { body: { status_code: number; data: ApprovalSettingsView } } => ({
  body: {
    status_code: 200,
    data: {
      agency_id: null,
      replies_need_approval: false,
      posts_need_approval: false,
      can_edit: false,
      ...over,
    },
  },
});

/** No post waits for approval, and no rule holds the stores' posts. */
export const noPostApprovals = {
  'GET /posts/approvals': { body: { status_code: 200, data: { data: emptyPage } } },
  'GET /reviews/approval-settings': approvalSettings(),
};
