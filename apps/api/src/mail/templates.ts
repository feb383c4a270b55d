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
