/** The post form's fields as the post rules' messages name them (spec 2 §4). */
export const postFieldLabels = {
  content: '投稿内容',
  button_link: 'ボタンのリンク',
  phone_number: '電話番号',
  button_type: 'ボタンの種類',
  shared_sns_type: '投稿先',
} as const;
