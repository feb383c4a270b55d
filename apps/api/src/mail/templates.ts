/**
 * The mails Tenpo sends, in Japanese. Links are absolute: on the host the request came on when it
 * is ours (an agency's white-label host), else PUBLIC_URL's (`linkOriginOf` in lib/hosts.ts).
 */
const footer =
  '\n\n――\nTenpo 運営事務局\nこのメールは送信専用です。心当たりのない場合は破棄してください。';

export const resetPasswordMail = (link: string, minutes: number) => ({
  subject: '【Tenpo】パスワード再設定のご案内',
  text: `Tenpo をご利用いただきありがとうございます。\n\nパスワード再設定のお申し込みを受け付けました。\n下記のリンクから${minutes}分以内に新しいパスワードを設定してください。\n\n${link}${footer}`,
});

export const registrationMail = (fullName: string, link: string, hours: number) => ({
  subject: '【Tenpo】ご登録内容の確認とアカウント登録のご案内',
  text: `${fullName} 様\n\nTenpo へのお申し込みありがとうございます。ご登録情報を受け付けました。\n下記のリンクから${hours}時間以内にパスワードを設定し、アカウント登録を完了してください。\n\n${link}${footer}`,
});

export const accountCreatedMail = (loginUrl: string) => ({
  subject: '【Tenpo】アカウント登録完了のお知らせ',
  text: `アカウント登録が完了しました。\n無料トライアル期間は登録日から30日間です。\n\nログインはこちら: ${loginUrl}${footer}`,
});

export const passwordChangedMail = () => ({
  subject: '【Tenpo】パスワード変更のお知らせ',
  text: `ご登録のアカウントのパスワードが変更されました。\n心当たりのない場合は至急パスワードの再設定を行ってください。${footer}`,
});

// ---- Account guards (issue 22, ADR 0065) ----

/** Sign-in refused for a while after repeated failures (login-throttle.ts). */
export const loginFailuresMail = (failures: number, forgotLink: string) => ({
  subject: '【Tenpo】ログインの失敗が続いています',
  text: `ご登録のメールアドレスで、ログインが${failures}回続けて失敗しました。このため、しばらくの間このメールアドレスではログインできません（数分で解除されます）。\n\nご自身の操作であれば、時間をおいて再度お試しいただくか、下記のリンクからパスワードを再設定してください。再設定すると、すぐにログインできるようになります。\nお心当たりのない場合は、第三者がログインを試みている可能性があります。推測されにくいパスワードへの再設定をおすすめします。\n\n${forgotLink}${footer}`,
});

/** Someone asked to sign up with an address that already has an account (item 11). */
export const signupExistingMail = (loginLink: string, forgotLink: string) => ({
  subject: '【Tenpo】新規登録のお申し込みについて',
  text: `このメールアドレスで Tenpo への新規登録のお申し込みがありましたが、このメールアドレスはすでに登録されています。新たなアカウントは作成していません。\n\nログインはこちら: ${loginLink}\nパスワードをお忘れの場合はこちら: ${forgotLink}\n\nお心当たりのない場合は、このメールを破棄してください。${footer}`,
});

/** To the new address: the link that makes it the login address. */
export const emailChangeConfirmMail = (link: string, hours: number) => ({
  subject: '【Tenpo】メールアドレス変更の確認',
  text: `Tenpo のログイン用メールアドレスをこのアドレスに変更するお申し込みを受け付けました。\n下記のリンクを${hours}時間以内に開くと、変更が完了します。リンクを開くまでは、これまでのメールアドレスでログインできます。\n\n${link}${footer}`,
});

/** To the old address, when a change is asked for. */
export const emailChangeRequestedMail = (newEmail: string) => ({
  subject: '【Tenpo】メールアドレス変更のお申し込み',
  text: `ご登録のアカウントで、ログイン用メールアドレスを ${newEmail} に変更するお申し込みがありました。変更は、新しいメールアドレスに送った確認メールのリンクが開かれた時点で完了します。\n\nお心当たりのない場合は、至急パスワードを変更してください。${footer}`,
});

/** To the old address, once the change is done. */
export const emailChangedMail = (newEmail: string) => ({
  subject: '【Tenpo】メールアドレス変更のお知らせ',
  text: `ご登録のアカウントのログイン用メールアドレスが ${newEmail} に変更されました。今後のお知らせは新しいメールアドレスにお送りします。\n\nお心当たりのない場合は、至急 Tenpo 運営事務局までご連絡ください。${footer}`,
});

/** To an address that another account asked to take: it is taken, nothing changed. */
export const emailInUseMail = () => ({
  subject: '【Tenpo】メールアドレス変更のお申し込みについて',
  text: `別の Tenpo アカウントで、ログイン用メールアドレスをこのアドレスに変更するお申し込みがありましたが、このメールアドレスはすでに登録されているため、変更は行っていません。\n\nお心当たりのない場合は、このメールを破棄してください。${footer}`,
});

const yen = (n: number) => `${n.toLocaleString('ja-JP')}円`;

/** The first payment or a monthly charge went through (ADR 0050). */
export const paymentReceiptMail = (r: {
  storeName: string;
  planName: string;
  amount: number;
  from: string;
  through: string;
  orderId: string;
  paidAt: string;
}) => ({
  subject: '【Tenpo】お支払い完了のお知らせ（領収書）',
  text: `${r.storeName} 様\n\nTenpo をご利用いただきありがとうございます。\n以下の内容でお支払いが完了しました。本メールを領収書としてご利用いただけます。\n\nプラン: ${r.planName}\nご利用期間: ${r.from} 〜 ${r.through}\n金額: ${yen(r.amount)}（税込）\nお支払い方法: クレジットカード\n決済日時: ${r.paidAt}\n注文番号: ${r.orderId}${footer}`,
});

/** A charge was declined (spec 1 §8: payment failed, details by mail; DESIGN §10). */
export const paymentFailedMail = (r: {
  storeName: string;
  planName: string;
  amount: number;
  link: string;
}) => ({
  subject: '【Tenpo】お支払いを完了できませんでした',
  text: `${r.storeName} 様\n\nTenpo をご利用いただきありがとうございます。\nご登録のクレジットカードで以下のお支払いを完了できませんでした。\n\nプラン: ${r.planName}\n金額: ${yen(r.amount)}（税込）\n\nカードの有効期限・ご利用限度額をご確認のうえ、下記のページからカード情報を更新してください。更新後、あらためて決済を行います。\nお支払いが確認できるまで、一部の機能がご利用いただけません。\n\n${r.link}${footer}`,
});

const excerptOf = (text: string, max = 200) => {
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max)}…` : one;
};

/** A review in a mail: `・★★☆☆☆ name（extra）` and its text on one line, cut at `max`. */
const reviewLine = (
  x: { stars: number; reviewer: string; comment: string | null },
  max: number,
  before = '',
  after = '',
) =>
  `・${before}${'★'.repeat(x.stars)}${'☆'.repeat(Math.max(0, 5 - x.stars))} ${x.reviewer || '匿名のユーザー'}${after}\n  ${excerptOf(x.comment ?? '（コメントなし）', max)}`;

/** New Google reviews of a store came in (issue 25): one mail per store and sync run. */
export const newReviewsMail = (r: {
  storeName: string;
  reviews: { stars: number; reviewer: string; comment: string | null }[];
  link: string;
}) => {
  const lines = r.reviews.map((x) => reviewLine(x, 80));
  return {
    subject: `【Tenpo】${r.storeName}に新しい口コミが${r.reviews.length}件届きました`,
    text: `${r.storeName} に Google の新しい口コミが届きました。\n\n${lines.join('\n')}\n\n返信は Tenpo の口コミ画面から行えます。\n${r.link}${footer}`,
  };
};

// ---- Approval of replies (issue 25 item 6, ADR 0093) ----

/** A reply waits for the approver's decision. */
export const approvalRequestedMail = (r: {
  storeName: string;
  author: string;
  comment: string;
  expiresOn: string;
  link: string;
}) => ({
  subject: `【Tenpo】${r.storeName}の口コミへの返信の承認依頼が届きました`,
  text: `${r.author} さんから、${r.storeName} の口コミへの返信について承認の依頼が届きました。\n\n返信の内容:\n${excerptOf(r.comment)}\n\n内容を確認し、Tenpo の口コミ画面から承認または差し戻しを行ってください。承認すると Google に送信されます。\n${r.expiresOn}までに承認されない場合、依頼は期限切れになります。\n${r.link}${footer}`,
});

/** The author learns what became of their request. */
export const approvalDecidedMail = (r: {
  storeName: string;
  outcome: 'sent' | 'rejected' | 'expired';
  by: string | null;
  note: string | null;
  comment: string;
  link: string;
}) => {
  const head = {
    sent: `${r.storeName} の口コミへの返信が ${r.by ?? ''} さんに承認され、Google に送信されました。Google の確認後に口コミに表示されます。`,
    rejected: `${r.storeName} の口コミへの返信が ${r.by ?? ''} さんにより差し戻されました。`,
    expired: `${r.storeName} の口コミへの返信の承認依頼は、期限までに承認されなかったため期限切れになりました。必要な場合は、あらためて依頼してください。`,
  }[r.outcome];
  const subject = {
    sent: `【Tenpo】${r.storeName}の口コミへの返信が承認されました`,
    rejected: `【Tenpo】${r.storeName}の口コミへの返信が差し戻されました`,
    expired: `【Tenpo】${r.storeName}の口コミへの返信の承認依頼が期限切れになりました`,
  }[r.outcome];
  const note = r.note ? `\n\n差し戻しの理由:\n${r.note}` : '';
  return {
    subject,
    text: `${head}${note}\n\n返信の内容:\n${excerptOf(r.comment)}\n\n${r.link}${footer}`,
  };
};

/** A post waits for approval (ADR 0095): to the store and its agency, not the author. */
export const postApprovalRequestedMail = (r: {
  storeName: string;
  author: string;
  content: string;
  channels: string;
  publishOn: string;
  expiresOn: string;
  link: string;
}) => ({
  subject: `【Tenpo】${r.storeName}の投稿の承認依頼が届きました`,
  text: `${r.author} さんから、${r.storeName} の投稿について承認の依頼が届きました。\n\n投稿先: ${r.channels}\n投稿日時: ${r.publishOn}\n\n投稿の内容:\n${excerptOf(r.content)}\n\n内容を確認し、Tenpo の投稿一覧から承認または差し戻しを行ってください。承認すると予約どおりに投稿されます（投稿日時を過ぎていればすぐに投稿されます）。\n${r.expiresOn}までに承認されない場合、依頼は期限切れになり、投稿されません。\n${r.link}${footer}`,
});

/** The author of a post learns what became of their request. */
export const postApprovalDecidedMail = (r: {
  storeName: string;
  outcome: 'approved' | 'rejected' | 'expired';
  by: string | null;
  note: string | null;
  content: string;
  link: string;
}) => {
  const head = {
    approved: `${r.storeName} の投稿が ${r.by ?? ''} さんに承認されました。予約どおりに投稿されます。`,
    rejected: `${r.storeName} の投稿が ${r.by ?? ''} さんにより差し戻されました。この投稿は送信されません。`,
    expired: `${r.storeName} の投稿の承認依頼は、期限までに承認されなかったため期限切れになりました。この投稿は送信されません。必要な場合は、あらためて投稿を作成してください。`,
  }[r.outcome];
  const subject = {
    approved: `【Tenpo】${r.storeName}の投稿が承認されました`,
    rejected: `【Tenpo】${r.storeName}の投稿が差し戻されました`,
    expired: `【Tenpo】${r.storeName}の投稿の承認依頼が期限切れになりました`,
  }[r.outcome];
  const note = r.note ? `\n\n差し戻しの理由:\n${r.note}` : '';
  return {
    subject,
    text: `${head}${note}\n\n投稿の内容:\n${excerptOf(r.content)}\n\n${r.link}${footer}`,
  };
};

// ---- In-app notices and the review digest (issue 25 item 2, ADR 0094) ----

/** The day's new reviews of a user's stores, once a day for those who chose it. */
export const reviewDigestMail = (r: {
  reviews: { store: string; stars: number; reviewer: string; comment: string | null }[];
  more: number;
  link: string;
}) => {
  const lines = r.reviews.map((x) => reviewLine(x, 80, `${x.store} `));
  const total = r.reviews.length + r.more;
  const more = r.more > 0 ? `\nほか${r.more}件` : '';
  return {
    subject: `【Tenpo】新しい口コミが${total}件届きました（1日のまとめ）`,
    text: `この1日に Google の新しい口コミが${total}件届きました。\n\n${lines.join('\n')}${more}\n\n返信は Tenpo の口コミ画面から行えます。\n${r.link}\n\n通知メールの受け取り方は、口コミ画面の「通知の設定」で変更できます。${footer}`,
  };
};

/** A burst of low ratings at a store (issue 25 item 9): the reviews, and how to report them. */
export const reviewSpikeMail = (r: {
  storeName: string;
  count: number;
  usual: number;
  reviews: { stars: number; reviewer: string; comment: string | null; at: string }[];
  more: number;
  link: string;
  reportUrl: string;
}) => {
  const lines = r.reviews.map((x) => {
    const when = new Date(x.at).toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo' });
    return reviewLine(x, 120, '', `（${when}）`);
  });
  const more = r.more > 0 ? `\nほか${r.more}件` : '';
  const usual = r.usual.toLocaleString('ja-JP', { maximumFractionDigits: 1 });
  return {
    subject: `【Tenpo】${r.storeName}で低評価の口コミが急に増えています`,
    text: `${r.storeName} に、この24時間で★1〜2の口コミが${r.count}件届きました（通常は1日あたり${usual}件）。\n\n${lines.join('\n')}${more}\n\n内容を確認のうえ、事実に基づくご意見には丁寧に返信してください。\n嫌がらせ・なりすまし・無関係な内容など Google のポリシーに違反する口コミは、Google に報告して削除を依頼できます（報告の方法: ${r.reportUrl}）。\n報酬を約束して高評価を依頼したり、口コミの削除を条件に返金したりすることは、Google のポリシーや景品表示法（ステルスマーケティング規制）に反するおそれがあります。\n\n口コミの一覧: ${r.link}${footer}`,
  };
};
