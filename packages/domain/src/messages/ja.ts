/**
 * Japanese texts shared by the API (validation and error envelopes) and the web app
 * (forms, alerts). Wording follows spec 3 §8 where the spec gives it; where it does not,
 * the sentence is ours and kept in the same register.
 */
export const fieldLabels = {
  email: 'メールアドレス',
  password: 'パスワード',
  password_confirmation: 'パスワード（確認）',
  current_password: '現在のパスワード',
  // Change password names its fields 新しいパスワード (spec 1 §5); its messages say so too.
  new_password: '新しいパスワード',
  new_password_confirmation: '新しいパスワード（確認）',
  name: '担当者名',
  full_name: '氏名',
  company_name: '会社名',
  store_name: '店舗名',
  phone: '電話番号',
  knowledge: '当サービスを知ったきっかけ',
  agent_code: '代理店コード',
  client_company_name: 'クライアント会社名',
  agency_name: '代理店名',
  register_type: '登録種別',
  token: 'トークン',
  agreed_terms: '利用規約への同意',
  logo_url: 'ロゴ画像',
  logo: 'ロゴ画像',
  user_id: '店舗',
  publisher_key: '連携先',
  publisher_id: '連携先',
  entity_id: '連携対象',
  page_id: 'Facebook ページ',
  location_id: 'ビジネス拠点',
} as const;

export type FieldName = keyof typeof fieldLabels;

export const ja = {
  required: (field: string) => `${field} を入力してください。`,
  minLength: (field: string, min: number) => `${field}は${min}文字以上で入力してください。`,
  maxLength: (field: string, max: number) => `${field}は${max}文字以内で入力してください。`,
  email: 'メールアドレスが正しくありません。',
  digitsOnly: '数字のみを入力してください',
  urlOnly: 'urlのみ入力してください。',
  urlRequired: 'URLフィールドは必須です',
  card16: '16桁以上で入力してください。',
  passwordMismatch: 'パスワード（確認）がパスワードと一致しません。',
  newPasswordMismatch: '新しいパスワード（確認）が新しいパスワードと一致しません。',
  termsRequired: '利用規約に同意してください。',
  fullNameSpace: '氏名は姓と名の間にスペースを入れてください。',
  phoneNoHyphen: '電話番号はハイフンなしの数字で入力してください。',
  invalidChoice: (field: string) => `${field}の値が正しくありません。`,
  imageOnly: '画像ファイルを選択してください。',
  imageTooLarge: (kb: number) => `画像は${kb}KB以下のファイルを選択してください。`,

  // Error catalogue (spec 3 §8)
  serverError: '何らかのエラーが発生しました',
  createSuccess: 'アイテムが正常に作成された',
  updateSuccess: '項目が正常に更新される',
  deleteSuccess: 'アイテムが正常に削除された',
  loggedInElsewhere:
    'すでに別のアカウントでログインしているから操作はダメです。ログアウトしてから再チャレンジしてください。',
  accessTokenExpired: 'アクセストークンの有効期限が切れました。',

  // Auth and account (our wording; the spec names the situation but not the text)
  invalidCredentials: 'メールアドレスまたはパスワードが正しくありません。',
  unauthenticated: 'ログインの有効期限が切れました。再度ログインしてください。',
  forbidden: 'この操作を行う権限がありません。',
  notFound: '対象が見つかりません。',
  invalidApiKey: 'APIキーが正しくありません。',
  tooManyRequests: 'リクエストが多すぎます。しばらく時間をおいてから再度お試しください。',
  forgotPasswordSent:
    'パスワード再設定用のメールを送信しました。メールに記載のリンクから新しいパスワードを設定してください。',
  resetPasswordDone: 'パスワードを再設定しました。新しいパスワードでログインしてください。',
  resetTokenInvalid: 'パスワード再設定のリンクが無効か、有効期限が切れています。',
  registrationReceived:
    '登録情報を受け付けました。確認メールに記載のリンクからアカウント登録を完了してください。',
  registerDone: 'アカウント登録が完了しました。ログインしてください。',
  emailTaken: 'このメールアドレスはすでに登録されています。',
  currentPasswordWrong: '現在のパスワードが正しくありません。',
  passwordChanged: 'パスワードを変更しました。',
  // Account guards (issue 22, ADR 0065).
  passwordTooCommon:
    'このパスワードはよく使われているか推測されやすいため使用できません。別のパスワードを設定してください。',
  passwordPersonal:
    'メールアドレスや氏名・会社名・店舗名をもとにしたパスワードは使用できません。別のパスワードを設定してください。',
  loginLocked: (minutes: number) =>
    `ログインの失敗が続いたため、このメールアドレスでは一時的にログインできません。${minutes}分ほどたってから再度お試しいただくか、パスワードを再設定してください。`,
  emailChangeRequested:
    '新しいメールアドレスに確認メールを送信しました。メールに記載のリンクを開くと、メールアドレスの変更が完了します。',
  emailChangeDone:
    'メールアドレスを変更しました。次回から新しいメールアドレスでログインしてください。',
  emailChangeInvalid: 'メールアドレス変更のリンクが無効か、有効期限が切れています。',
  termsAgreed: '利用規約に同意しました。',
  logoutDone: 'ログアウトしました。',
  fileTooLarge: 'ファイルサイズが大きすぎます。',
  // Issue 22: the framework's refusals, each in the envelope with a line of its own.
  badRequest: 'リクエストの形式が正しくありません。',
  multipartMalformed:
    '送信データの形式が正しくありません。ファイルを選択し直して、もう一度送信してください。',
  unsupportedMediaType: 'この形式のデータは受け付けていません。',
  uriTooLong: 'URLが長すぎます。',
  headersTooLarge: 'リクエストのヘッダーが大きすぎます。',
  requestTimeout: 'リクエストがタイムアウトしました。もう一度お試しください。',
  methodNotAllowed: 'この操作は受け付けていません。',
  // Uploads in flight (issue 22): one user's, and the whole server's.
  uploadBusyUser:
    'アップロード中のファイルが多すぎます。いまのアップロードが終わってから、もう一度お試しください。',
  uploadBusyServer:
    'ただいまアップロードが混み合っています。しばらくしてから、もう一度お試しください。',
  imageTooManyPixels: (limit: string) =>
    `画像の大きさ（幅×高さ）は${limit}以下の画像を選択してください。`,

  // Channel connections (issue 4). `label` is the channel's label (Google, Facebook, …).
  channelReauth: (label: string) => `${label}との連携が切れました。再連携してください。`,
  channelRetry: (label: string) =>
    `${label}に接続できませんでした。しばらくしてから再度お試しください。`,
  channelQuota: (label: string) =>
    `${label}の利用上限に達しました。しばらくしてから再度お試しください。`,
  channelInvalid: (label: string) => `${label}がリクエストを受け付けませんでした。`,
  // Google's own version of the listing (issue 21 item 9, ADR 0061).
  googleVersionAccepted: 'Google の表示内容を店舗情報に反映しました。',
  googleVersionResent: '店舗情報の内容を Google にもう一度送信します。',
  googleVersionNothing: 'Google が変更した項目はありません。',
  listingRefusedFields: (fields: string) =>
    `Google が次の項目を受け付けませんでした: ${fields}。内容を確認して保存し直してください。`,
  listingRefused: 'Google がこの変更を受け付けませんでした。内容を確認して保存し直してください。',
  listingFieldRefused: 'Google がこの項目を受け付けませんでした。',
  listingPhoneRequired: 'Google に登録済みの電話番号は空にできません。電話番号を入力してください。',
  /** The fields a channel named in its refusal, by the form's names (ADR 0061). */
  channelInvalidFields: (label: string, fields: string) =>
    `${label}が受け付けなかった項目: ${fields}`,
  channelBlocked: (label: string) =>
    `${label}のポリシーにより、このアカウントからの投稿が一時的に制限されています。時間をおいて内容を確認してから再度お試しください。`,
  channelOutcomeUnknown: (label: string) =>
    `${label}から応答がなく、反映されたか確認できませんでした。確認してから再度お試しください。`,
  channelNotConnected: (label: string) => `${label}が連携されていません。先に連携してください。`,
  channelTrialOnly: '無料トライアルでは Google ビジネスプロフィールのみ連携できます。',
  channelDenied: (label: string) => `${label}との連携がキャンセルされました。`,
  channelStateInvalid:
    '連携の手続きが無効になったか、有効期限が切れました。もう一度お試しください。',
  channelConnectFailed: (label: string) =>
    `${label}との連携に失敗しました。しばらくしてから再度お試しください。`,
  disconnectSuccess: '連携を解除しました。',
  syncSuccess: '同期しました。',
  connectSuccess: '連携しました。',
  pageNotFound: '選択した Facebook ページが見つかりません。',
  locationNotFound: '選択したビジネス拠点が見つかりません。',

  // Posts and media rules (issue 9, packages/domain/src/posts). `label` is the channel's label.
  // Media messages name no file, so that the same fault on several files reads once (spec 2 §4).
  mediaFormat: (label: string, allowed: string) =>
    `${label}に投稿できないファイル形式です。対応形式: ${allowed}`,
  mediaSizeSmaller: (label: string, min: string) =>
    `${label}に投稿する画像のファイルサイズが小さすぎます。${min}以上のファイルを選択してください。`,
  mediaSizeBigger: (label: string, max: string) =>
    `${label}に投稿するファイルのサイズが大きすぎます。${max}以下のファイルを選択してください。`,
  mediaResolutionSmaller: (label: string, res: string) =>
    `${label}に投稿するファイルの解像度が小さすぎます（${res}）。`,
  mediaResolutionBigger: (label: string, res: string) =>
    `${label}に投稿するファイルの解像度が大きすぎます（${res}）。`,
  mediaDurationShorter: (label: string, sec: number) =>
    `${label}に投稿する動画が短すぎます。${sec}秒以上の動画を選択してください。`,
  mediaDurationLonger: (label: string, sec: number) =>
    `${label}に投稿する動画が長すぎます。${sec}秒以下の動画を選択してください。`,
  mediaCountOver: (label: string, max: number) =>
    `${label}に添付できるファイルは${max}個までです。`,
  mediaVideoNotAllowed: (label: string) => `${label}には動画を投稿できません。`,
  mediaVideoOver20Mb: '20MB以下の動画をアップロードしてください。',
  mediaUploadOver20Mb: '20MB以下のファイルをアップロードしてください。',
  mediaWebpUnsupported: 'WebP形式の画像には対応していません。',
  mediaExtensionMismatch: (ext: string, actual: string) =>
    `ファイルの内容（${actual}）が拡張子（.${ext}）と一致しません。`,
  mediaUnreadable: 'ファイルを読み取れませんでした。画像または動画のファイルを選択してください。',
  // Publishing (ADR 0062): a picture made into the format a channel takes, on the server.
  mediaConvertFailed: (label: string) =>
    `${label}に送るための画像の変換に失敗しました。別の画像（JPEGまたはPNG）で投稿し直してください。`,
  mediaConvertTooLarge: (label: string, max: string) =>
    `${label}に送るための画像を${max}以下にできませんでした。解像度の小さい画像で投稿し直してください。`,
  mediaAspectRatio: (label: string, range: string) =>
    `${label}に投稿する画像の縦横比は${range}にしてください。`,
  postTargetsRequired: '投稿先を1つ以上選択してください。',
  postTextTooLong: (label: string, max: number) => `${label}に投稿できる本文は${max}文字までです。`,
  postTextTooLongWeighted: (label: string, max: number) =>
    `${label}に投稿できる本文は${max}文字までです（全角文字は2文字、URLは23文字として数えます）。`,
  postLinkNotHttp: 'ボタンのリンクは http:// または https:// で始まるURLを入力してください。',
  postCallNowNeedsPhone: '「今すぐ電話」には店舗の電話番号が必要です。',
  postButtonNotWith: (label: string) => `「購入」ボタンの投稿は${label}には同時に投稿できません。`,
  postMediaRequired: (label: string) => `${label}に投稿するには写真または動画が必要です。`,
  postDateFormat: '日時は yyyy-MM-dd HH:mm:ss の形式で入力してください。',
  postDateFromNow: '現在以降の日時を指定してください。',
  /** Spec 3 §8 "Post end/removal date": a removal date in the past. */
  postDeleteFromNow: '終了日及び投稿削除予約は現在以降の日付を指定してください。',
  postDeleteAfterPublish: '削除日時は公開日時より後の日時を指定してください。',
  postNotRemovable: (label: string) =>
    `${label}の投稿は削除できません（削除予約は反映されません）。`,
  // Posts and their delivery (issue 9, parts 2 and 3: calls and delivery).
  postCreated: '投稿を受け付けました。',
  postContentRequired: '投稿内容を入力してください。',
  postStoreRequired: '投稿する店舗を選択してください。',
  postChannelRequired: '投稿先を選択してください。',
  postChannelUnknown: '投稿先の指定が正しくありません。',
  postButtonTypeInvalid: 'ボタンの種類が正しくありません。',
  postButtonLinkRequired: 'ボタンのリンクを入力してください。',
  postButtonLinkInvalid:
    'ボタンのリンクには http:// または https:// で始まる URL を入力してください。',
  postPhoneRequired: '「今すぐ電話」には電話番号が必要です。',
  postTooManyFiles: (max: number) => `ファイルは${max}件まで選択できます。`,
  postFileFormat: '対応していないファイル形式です。画像または動画（MP4、MOV）を選択してください。',
  postFileTooLarge: '20MB以下のファイルを選択してください。',
  postMediaNotFound: '指定したメディアが見つかりません。',
  postChannelNotConnected: (store: string, label: string) =>
    `${store}：${label}が連携されていません。先に連携してください。`,
  postNoRemoval: (label: string) => `${label}の投稿は削除できないため、削除日時は適用されません。`,
  postPublishFailed: (label: string) => `${label}への投稿に失敗しました。`,
  postRemoveFailed: (label: string) => `${label}の投稿の削除に失敗しました。`,
  postRetryAccepted: '再送信を受け付けました。',
  postRetryNotFailed: '失敗した投稿先のみ再送信できます。',
  // A post the channel reviews after taking it (Google local posts' state; ADR 0060). Google
  // gives no reason for a rejection, so the line names its content policy.
  postRejected: (label: string) =>
    `${label}の審査で投稿が承認されませんでした。${label}のコンテンツポリシーに沿わない内容と判断されたためです（詳しい理由は${label}から提供されません）。内容を編集してから再送信してください。`,
  postReviewTimedOut: (label: string) =>
    `${label}の審査が24時間たっても終わりませんでした。再送信すると審査の状況をもう一度確認します。`,
  // Offers, events and news (issue 9, spec 2 §7; ADR 0030).
  topicCreated: '投稿を受け付けました。',
  topicUpdated: '投稿を更新しました。',
  topicDeleted: '投稿を削除しました。',
  topicTitleRequired: 'タイトルを入力してください。',
  topicTitleTooLong: (max: number) => `タイトルは${max}文字以内で入力してください。`,
  topicStartRequired: '開始日時を入力してください。',
  topicEndRequired: '終了日時を入力してください。',
  topicEndBeforeStart: '終了日時は開始日時より後の日時を指定してください。',
  // Spec 3 §8 "Post end/removal date" (its 「くさい」 typo corrected).
  topicEndPast: '終了日及び投稿削除予約は現在以降の日付を指定してください。',
  topicRedeemLinkInvalid:
    '特典利用のリンクには http:// または https:// で始まる URL を入力してください。',
  topicCouponTooLong: (max: number) => `クーポンコードは${max}文字以内で入力してください。`,
  topicTermsTooLong: (max: number) => `利用規約は${max}文字以内で入力してください。`,
  topicGoogleOnly: '特典・イベント・最新情報はGoogleビジネスプロフィールにのみ投稿できます。',
  topicRemoved: 'この投稿は削除済みです。',
  topicBusy: 'この投稿は送信中です。しばらくしてからもう一度お試しください。',
  topicProviderFailed: 'Googleビジネスプロフィールでの処理に失敗しました。',
  // Photo library (issue 11, spec 2 §8 media upload and delete; ADR 0043).
  photoUploaded: '写真をアップロードしました。',
  photoFileRequired: 'アップロードする写真を選択してください。',
  photoDeleteConfirm: 'この写真を削除しますか？',
  // Spec 3 §8's texts, as written (issue 23 item 13).
  photoDeleted: '写真が削除されました。',
  photoDeleteFailed: '写真の削除に失敗',
  photoBusy: 'この写真はGoogleへ送信中です。しばらくしてからもう一度お試しください。',
  photoGoogleRefused:
    'Googleビジネスプロフィールが受け付けませんでした（JPG・PNG、10KB〜5MB、250×250ピクセル以上）。',
  photoGoogleUnreachable: 'Googleビジネスプロフィールに送信できませんでした。自動で再送信します。',
  photoGoogleReauth: 'Googleビジネスプロフィールの連携が切れています。再連携してください。',
  // Reports (issue 10): dashboard and report calls, CSV export (spec 3 §5, §7, §8; ADR 0036).
  reportRangeInvalid: '期間は 7（1週間）、1（1か月）、3（3か月）のいずれかを指定してください。',
  reportKeywordRangeInvalid: '検索キーワードの期間は 1（1か月）か 3（3か月）を指定してください。',
  /** spec key screens.report.texts.specifyThePeriodsMissing */
  reportPeriodsMissing: '集計期間を指定してください。',
  reportDateFormat: '日付は YYYY-MM-DD の形式で入力してください。',
  reportEndBeforeStart: '終了日は開始日以降の日付を指定してください。',
  reportOutOfWindow: (from: string, to: string) =>
    `期間は${from}から${to}までの範囲で指定してください。`,
  reportStoresRequired: '店舗を1つ以上選択してください。',
  reportStoreInvalid: '店舗の指定が正しくありません。',
  reportCsvLinkExpired: 'ダウンロードの有効期限が切れました。もう一度CSVを出力してください。',
  reportCsvMonth: '年月',
  reportCsvStore: '店舗',
  reportCsvTotal: '合計',
  reportMetricLabels: {
    business_impressions_desktop_maps: 'Googleマップ（パソコン）での表示回数',
    business_impressions_mobile_maps: 'Googleマップ（モバイル）での表示回数',
    business_impressions_desktop_search: 'Google検索（パソコン）での表示回数',
    business_impressions_mobile_search: 'Google検索（モバイル）での表示回数',
    search_keywords: '検索キーワードでの表示回数',
    business_bookings: '予約数',
    business_conversations: 'メッセージ数',
    business_direction_requests: 'ルート検索数',
    business_food_orders: 'フードの注文数',
    call_clicks: '通話数',
    website_clicks: 'ウェブサイトのクリック数',
  },
  /** The single-store CSV's trailing review columns (issue 25 item 7), after the spec's. */
  reportReviewLabels: {
    review_count: '口コミ数（新規）',
    average_rating: '平均評価（累計）',
    period_average_rating: '平均評価（期間内の口コミ）',
    reply_rate: '返信率（%）',
    median_reply_hours: '返信までの時間（中央値・時間）',
  },
} as const;
