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
