import { describe, expect, it } from 'vitest';
import { categoryGroupOf, ruleSetsForCategory } from './categories';
import { checkReply, hasBlocking, reviewerNamePatterns } from './check';
import { kanaInsensitive, normalizeForMatch } from './normalize';
import { COMPLIANCE_RULES, REVIEWER_NAME_RULE } from './rules';
import {
  COMPLIANCE_SET_LABELS,
  COMPLIANCE_SEVERITIES,
  complianceFindingSchema,
  RULE_SET_IDS,
  type ComplianceFinding,
  type RuleSetId,
} from './schemas';

/** The three kinds of store: a clinic (every set), a salon or shop, a restaurant. */
const M: RuleSetId[] = ['medical_ad', 'pmd_act', 'premiums_act', 'personal_data'];
const B: RuleSetId[] = ['pmd_act', 'premiums_act', 'personal_data'];
const G: RuleSetId[] = ['premiums_act', 'personal_data'];

const check = (text: string, sets: RuleSetId[] = M, reviewerName?: string | null) =>
  checkReply(text, { ruleSets: sets, reviewerName });
const of = (findings: ComplianceFinding[], id: string) => findings.filter((f) => f.rule_id === id);

/** Every finding names its phrase where it stands in the text as typed. */
const expectPlaced = (text: string, findings: ComplianceFinding[]) => {
  for (const f of findings) expect(text.slice(f.start, f.end)).toBe(f.phrase);
};

/** Replies that must find the rule, and the phrase it must report first. */
const HITS: [string, RuleSetId[], string, string][] = [
  ['med.comparison', M, '他院よりも丁寧な治療を心がけております。', '他院より'],
  ['med.comparison', M, 'どこよりも親身な歯科医院でありたいと考えています。', 'どこよりも'],
  ['med.comparison', M, '当院は地域一番の歯科医院です。', '地域一番'],
  ['med.comparison', M, '当院は県内屈指の症例数です。', '県内屈指'],
  ['med.comparison', M, '他の医院とは比べものになりません。', '他の医院とは比べ'],
  ['med.comparison', M, '当院は地域で最も症例数が多い歯科医院です。', '地域で最も'],
  ['med.superlative', M, '日本一の技術でお応えします。', '日本一'],
  ['med.superlative', M, '地域No.1の歯科医院です。', 'No.1'],
  ['med.superlative', M, '最高の医療をご提供いたします。', '最高の医療'],
  ['med.superlative', M, '最先端の設備を備えております。', '最先端'],
  ['med.absolute', M, '絶対に安全な治療ですのでご安心ください。', '絶対に安全'],
  ['med.absolute', M, '成功率100%の手術です。', '成功率100%'],
  ['med.absolute', M, 'インプラントの成功率は99%以上です。', '成功率は99%'],
  ['med.absolute', M, '絶対に後悔させません。', '後悔させません'],
  ['med.absolute', M, '副作用はありませんのでご安心ください。', '副作用はありません'],
  ['med.guarantee', M, '必ず治りますのでご安心ください。', '必ず治ります'],
  ['med.guarantee', M, '次回の施術で確実に改善します。', '確実に改善'],
  ['med.guarantee', M, '治療効果を保証いたします。', '効果を保証'],
  ['med.painless', M, '当院は痛みゼロの治療です。', '痛みゼロ'],
  ['med.painless', M, '麻酔をしますので全く痛くありません。', '全く痛くありません'],
  ['med.painless', M, '痛くない治療をお約束します。', '痛くない治療をお約束'],
  [
    'med.testimonial',
    M,
    'いただいた口コミは当院ホームページに掲載させていただきます。',
    '口コミは当院ホームページに掲載',
  ],
  ['med.testimonial', M, '患者様の声として紹介させていただきます。', '患者様の声として'],
  ['med.testimonial', M, '多くの患者様が効果を実感されています。', '多くの患者様が効果'],
  ['med.testimonial', M, '腰痛が治ったお客様も多数いらっしゃいます。', '治ったお客様も多数'],
  ['med.review_endorse', M, '口コミ通りの仕上がりとのこと、嬉しく思います。', '口コミ通り'],
  ['med.review_endorse', M, '口コミにもあるように、矯正の痛みは少なめです。', '口コミにもあるよう'],
  ['med.before_after', M, 'ビフォーアフターの写真もぜひご覧ください。', 'ビフォーアフター'],
  ['med.before_after', M, '施術前後の写真を比べると一目瞭然です。', '施術前後の写真'],
  ['med.price_lure', M, '今ならホワイトニングが半額です。', '今なら'],
  ['med.price_lure', M, '今月末までのキャンペーンで初回50%オフです。', '今月末までのキャンペーン'],
  ['pmd.cure', B, 'このクリームでアトピーが治ります。', 'アトピーが治ります'],
  ['pmd.cure', B, '肩こりが改善するマッサージです。', '肩こりが改善'],
  ['pmd.cure', B, '発毛効果を実感していただけて何よりです。', '発毛効果'],
  ['pmd.cure', B, 'このシャンプーを使えば抜け毛が減ります。', '抜け毛が減り'],
  ['pmd.skin', B, 'シミが消える美容液として人気です。', 'シミが消え'],
  ['pmd.skin', B, 'ｼﾐが消えると好評です。', 'ｼﾐが消え'],
  ['pmd.skin', B, 'しわがなくなるクリームです。', 'しわがなくな'],
  ['pmd.rejuvenation', B, '10歳若返ると評判のコースです。', '10歳若返る'],
  ['pmd.rejuvenation', B, '体の中から若返るサプリメントです。', '若返る'],
  ['pmd.rejuvenation', B, 'マイナス5歳肌を目指しましょう。', 'マイナス5歳肌'],
  ['pmd.anti_aging', B, 'アンチエイジングにおすすめのコースです。', 'アンチエイジング'],
  ['pmd.slimming', B, '飲むだけで痩せるサプリです。', '飲むだけで痩せる'],
  ['pmd.slimming', B, '3kg減量できた方もいらっしゃいます。', '3kg減量'],
  ['pmd.slimming', B, 'このお茶でヤセる方が続出です。', 'ヤセる'],
  ['pmd.slimming', B, 'ダイエット効果抜群のコースです。', 'ダイエット効果'],
  ['pmd.health_food', B, '免疫力が上がると人気の商品です。', '免疫力が上が'],
  ['pmd.health_food', B, 'デトックス効果もございます。', 'デトックス'],
  ['prem.no1', G, '地域No.1の品揃えです。', 'No.1'],
  ['prem.no1', G, '地域で一番の品揃えを誇ります。', '地域で一番'],
  ['prem.no1', G, '当店のラーメンは第1位に選ばれました。', '第1位'],
  ['prem.first_only', G, '業界初のサービスです。', '業界初'],
  ['prem.first_only', G, '唯一の技術でお応えします。', '唯一の技術'],
  ['prem.double_price', G, '通常5,000円が今なら2,500円です。', '通常5,000円が'],
  ['prem.double_price', G, '次回は２０％ＯＦＦでご利用いただけます。', '２０％ＯＦＦ'],
  ['prem.limited_time', G, '今だけのキャンペーンです。', '今だけ'],
  ['prem.limited_time', G, '期間限定価格でご提供しております。', '期間限定価格'],
  ['prem.refund', G, '効果がなければ全額返金いたします。', '効果がなければ全額返金'],
  ['prem.refund', G, '返金保証付きですのでお試しください。', '返金保証'],
  [
    'prem.review_incentive',
    G,
    '口コミを投稿していただいた方には次回10%オフのクーポンを差し上げます。',
    '口コミを投稿していただいた方には次回10%オフ',
  ],
  ['prem.review_incentive', G, '★5の口コミで500円引きいたします。', '★5の口コミで500円'],
  ['prem.review_incentive', G, '口コミ特典もご用意しております。', '口コミ特典'],
  ['prem.rating_request', G, '★5をつけていただけると励みになります。', '★5をつけて'],
  ['prem.rating_request', G, '高評価をお願いいたします。', '高評価をお願い'],
  ['pd.visit_date', G, '11月3日にご来院いただきありがとうございます。', '11月3日にご来院'],
  [
    'pd.visit_date',
    G,
    '１１月３日（月）のご予約、ありがとうございました。',
    '１１月３日（月）のご予約',
  ],
  ['pd.visit_date', G, '10時からのご予約でお待たせしてしまい', '10時からのご予約'],
  ['pd.visit_date', G, 'ご予約のお時間に遅れてしまい申し訳ございません。', 'ご予約のお時間'],
  ['pd.visit_date', G, '11/3のご来院ありがとうございました。', '11/3のご来院'],
  ['pd.visit_date', G, 'ご来店は11月5日の15時でしたね。', 'ご来店は11月5日'],
  ['pd.staff_name', G, '担当の山田よりご連絡いたします。', '担当の山田'],
  ['pd.staff_name', G, '担当させていただいた佐藤です。', '担当させていただいた佐藤'],
  ['pd.staff_name', G, '担当スタイリストのミサキが喜んでおりました。', '担当スタイリストのミサキ'],
  ['pd.health_info', G, '親知らずの抜歯、お疲れ様でした。', '親知らず'],
  ['pd.health_info', G, '妊娠中とのことでしたので、体勢に配慮いたしました。', '妊娠'],
  ['pd.phone_mobile', G, 'ご不明点は090-1234-5678までご連絡ください。', '090-1234-5678'],
  ['pd.phone_mobile', G, '携帯（０９０ー１２３４ー５６７８）まで', '０９０ー１２３４ー５６７８'],
  ['pd.email_personal', G, 'taro.yamada@gmail.com までご連絡ください。', 'taro.yamada@gmail.com'],
  ['pd.email_personal', G, 'yamada＠yahoo.co.jp へどうぞ。', 'yamada＠yahoo.co.jp'],
  ['pd.email', G, 'yamada@clinic-example.jp までご連絡ください。', 'yamada@clinic-example.jp'],
];

/** Near misses: the same words in a polite, harmless use; the rule must stay silent. */
const MISSES: [string, RuleSetId[], string][] = [
  ['med.comparison', M, '他院よりご紹介いただき、ありがとうございました。'],
  ['med.comparison', M, '地域の皆様に信頼される医院を目指します。'],
  ['med.comparison', M, '地域一番の歯科医院を目指してまいります。'],
  ['med.superlative', M, '最高の評価をいただき、ありがとうございます。'],
  ['med.superlative', M, '星5つという最高評価、スタッフ一同の励みになります。'],
  ['med.superlative', M, '最高の一日になったとのこと、嬉しく思います。'],
  ['med.superlative', M, '一番奥の席をご用意しておりました。'],
  ['med.superlative', M, 'No.1を目指して、これからも精進してまいります。'],
  ['med.superlative', M, '世界一周のご旅行前にお越しいただきました。'],
  ['med.absolute', M, '完全予約制となっております。'],
  ['med.absolute', M, '完全個室でご案内いたします。'],
  ['med.absolute', M, '副作用についても丁寧にご説明いたします。'],
  ['med.guarantee', M, '早く治りますように、お大事になさってください。'],
  ['med.guarantee', M, '治療お疲れ様でした。'],
  ['med.guarantee', M, '効果には個人差がございます。'],
  ['med.guarantee', M, '必ずまたお越しください。'],
  ['med.painless', M, '痛くない治療を心がけております。'],
  ['med.painless', M, '痛みが少ないよう配慮しております。'],
  ['med.painless', M, 'お痛みはございませんでしたか。'],
  ['med.testimonial', M, '患者様の声に耳を傾け、改善してまいります。'],
  ['med.testimonial', M, '患者様の声を大切にしております。'],
  ['med.review_endorse', M, '口コミを通じて当院を知っていただけたとのこと、光栄です。'],
  ['med.review_endorse', M, 'お書きいただいた通り、駐車場が狭く申し訳ございません。'],
  ['med.before_after', M, '施術前後のご説明を丁寧に行ってまいります。'],
  ['med.price_lure', M, '今だけでなく、これからも丁寧な診療を続けます。'],
  ['med.price_lure', M, '無料駐車場もございます。'],
  ['pmd.cure', B, '治療ではなくリラクゼーションを目的としたサロンです。'],
  ['pmd.cure', B, 'がんばって通っていただき、改善点も教えてくださりありがとうございます。'],
  ['pmd.cure', M, 'このクリームでアトピーが治ります。'],
  ['pmd.cure', B, '風邪が治ったら、またいらしてくださいね。'],
  ['pmd.cure', B, '早く治るといいですね。お大事にどうぞ。'],
  ['pmd.skin', B, 'シミやシワのお悩みもご相談ください。'],
  ['pmd.skin', B, 'もうしわけございません、とれなかったご予約は改めてご連絡します。'],
  ['pmd.skin', B, 'お楽しみがなくならないよう、新メニューもご用意しております。'],
  ['pmd.rejuvenation', B, '年齢を重ねた肌にもなじむ化粧水です。'],
  ['pmd.anti_aging', B, 'エイジングケアのご相談も承ります。'],
  ['pmd.slimming', B, 'ゆっくり癒やされる時間をお過ごしください。'],
  ['pmd.slimming', B, '疲れをいやせる空間づくりを心がけております。'],
  ['pmd.health_food', B, '季節の変わり目ですので、どうぞご自愛ください。'],
  ['prem.no1', G, 'ランキング第1位（※2025年 当社調べ）をいただきました。'],
  ['prem.no1', G, '一番奥の席をご用意しておりました。'],
  ['prem.no1', G, 'No.10の整理券をお持ちの方からご案内しました。'],
  ['prem.no1', M, '地域No.1の歯科医院です。'],
  ['prem.first_only', G, '唯一残念だったのは待ち時間とのこと、申し訳ございません。'],
  ['prem.first_only', G, '初めてのご来店、ありがとうございます。'],
  ['prem.double_price', G, 'お会計は3,000円でした。'],
  ['prem.limited_time', G, '期間限定のパフェもお楽しみいただけたようで何よりです。'],
  ['prem.limited_time', G, '今だけでなく、これからも変わらぬ味をお届けします。'],
  ['prem.refund', G, 'ご迷惑をおかけしたため、お代は全額返金させていただきます。'],
  [
    'prem.review_incentive',
    G,
    '口コミをいただきありがとうございます。次回使えるクーポンもぜひご利用ください。',
  ],
  ['prem.review_incentive', G, 'クーポンのご利用と口コミ、ありがとうございました。'],
  ['prem.rating_request', G, '★5をいただきありがとうございます。'],
  ['prem.rating_request', G, '高評価をいただき、スタッフ一同喜んでおります。'],
  ['pd.visit_date', G, '先日はご来院いただきありがとうございました。'],
  ['pd.visit_date', G, '営業時間は10時から19時です。'],
  ['pd.visit_date', G, '12月29日より休診となります。'],
  ['pd.visit_date', G, '年末のご予約は12月28日まで承っております。'],
  ['pd.staff_name', G, '担当の者より改めてご連絡いたします。'],
  ['pd.staff_name', G, '担当の医師にも申し伝えます。'],
  ['pd.staff_name', G, '担当スタッフ一同、励みになります。'],
  ['pd.health_info', G, '当院では歯周病の予防にも力を入れております。'],
  ['pd.health_info', G, '皆様の虫歯予防をお手伝いいたします。'],
  ['pd.health_info', G, 'お子様の虫歯予防について、いつでもご相談ください。'],
  ['pd.phone_mobile', G, '03-1234-5678（代表）までお電話ください。'],
  ['pd.email_personal', G, 'info@clinic-example.jp までご連絡ください。'],
  ['pd.email', G, 'info@clinic-example.jp までご連絡ください。'],
  ['pd.email', G, 'contact@shop.example へどうぞ。'],
];

describe('checkReply: each rule finds its phrases', () => {
  it.each(HITS)('%s: %s', (id, sets, text, phrase) => {
    const findings = check(text, sets);
    const mine = of(findings, id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]?.phrase).toBe(phrase);
    expectPlaced(text, findings);
  });

  it.each(MISSES)('%s stays silent: %s', (id, sets, text) => {
    expect(of(check(text, sets), id)).toEqual([]);
  });

  it('has a true positive and a near miss for every rule', () => {
    const ids = [...COMPLIANCE_RULES.map((r) => r.id)].sort();
    expect([...new Set(HITS.map(([id]) => id))].sort()).toEqual(ids);
    expect([...new Set(MISSES.map(([id]) => id))].sort()).toEqual(ids);
  });
});

describe('checkReply: width, kana and kanji variants', () => {
  it.each([
    ['地域ＮＯ．１の歯科医院です。', 'ＮＯ．１'],
    ['地域Ｎｏ1の歯科医院です。', 'Ｎｏ1'],
    ['地域No 1の歯科医院です。', 'No 1'],
    ['地域№1の歯科医院です。', '№1'],
    ['地域ナンバーワンの歯科医院です。', 'ナンバーワン'],
    ['地域ﾅﾝﾊﾞｰﾜﾝの歯科医院です。', 'ﾅﾝﾊﾞｰﾜﾝ'],
    ['地域なんばーわんの歯科医院です。', 'なんばーわん'],
    ['地域ナンバー１の歯科医院です。', 'ナンバー１'],
    ['地域第一位の歯科医院です。', '第一位'],
  ])('%s', (text, phrase) => {
    const findings = of(check(text), 'med.superlative');
    expect(findings.map((f) => f.phrase)).toEqual([phrase]);
    expectPlaced(text, findings);
  });

  it.each([
    ['シミが消えます', 'シミが消え'],
    ['しみが消えます', 'しみが消え'],
    ['ｼﾐが消えます', 'ｼﾐが消え'],
    ['ＳＨＩＭＩ対策のシミが消えます', 'シミが消え'],
  ])('kana and width: %s', (text, phrase) => {
    const findings = of(check(text, B), 'pmd.skin');
    expect(findings.map((f) => f.phrase)).toEqual([phrase]);
    expectPlaced(text, findings);
  });

  it('reads old kanji forms as the common ones, and reports the original', () => {
    const text = '必ず效果が出ます。絕対に安全です。';
    const findings = check(text);
    expect(findings.map((f) => [f.rule_id, f.phrase])).toEqual([
      ['med.guarantee', '必ず效果が出'],
      ['med.absolute', '絕対に安全'],
    ]);
    expectPlaced(text, findings);
  });

  it('keeps positions right after characters NFKC merges or splits', () => {
    const text = 'ｶﾞｲﾄﾞ㈱の𠮷田です。最先端の設備です。';
    const [f] = check(text);
    expect(f?.phrase).toBe('最先端');
    expect(f?.start).toBe(text.indexOf('最先端'));
  });
});

describe('normalizeForMatch', () => {
  it('maps every normalised character back to its source', () => {
    const m = normalizeForMatch('ｶﾞ１㈱𠮷');
    expect(m.text).toBe('ガ1(株)吉');
    expect(m.from).toEqual([0, 2, 3, 3, 3, 4]);
    expect(m.to).toEqual([2, 3, 4, 4, 4, 6]);
  });

  it('makes a pattern blind to hiragana and katakana, classes and escapes kept', () => {
    expect(kanaInsensitive('シミ')).toBe('[シし][ミみ]');
    expect(kanaInsensitive('[うも]\\p{Script=Katakana}ー')).toBe(
      '[うウもモ]\\p{Script=Katakana}ー',
    );
    expect(kanaInsensitive('[ァ-ヶ]')).toBe('[ァ-ヶ]');
  });
});

describe('checkReply: the reviewer’s name', () => {
  it.each<[string, string, string[]]>([
    ['山田太郎', '山田太郎様、ご来店ありがとうございます。', ['山田太郎']],
    ['山田太郎', '山田様、ご来店ありがとうございます。', ['山田様']],
    ['山田 太郎', '山田太郎さん、ありがとうございました。', ['山田太郎さん']],
    ['Taro Yamada', 'Yamada様、ありがとうございました。', ['Yamada様']],
    ['Taro Yamada', 'TARO YAMADA様、ありがとうございました。', ['TARO YAMADA様']],
    ['ﾔﾏﾀﾞ', 'やまださん、またお待ちしております。', ['やまださん']],
    ['髙橋', '高橋様、ありがとうございます。', ['高橋様']],
    ['渡邉花子', '渡辺花子様', ['渡辺花子']],
    ['はなこ🌸', 'はなこ様、またお待ちしております。', ['はなこ様']],
  ])('%s in %s', (name, text, phrases) => {
    const findings = of(check(text, G, name), 'pd.reviewer_name');
    expect(findings.map((f) => f.phrase)).toEqual(phrases);
    expect(findings[0]?.severity).toBe('warn');
    expectPlaced(text, findings);
  });

  it.each<[string | null | undefined, string]>([
    ['山田', '山田の景色を楽しんでいただけましたか。'],
    ['さくら', 'さくらの季節になりました。'],
    ['Google ユーザー', 'Google ユーザー様、ありがとうございます。'],
    ['A Google User', 'ありがとうございます。'],
    [null, 'ありがとうございます。'],
    ['', 'ありがとうございます。'],
    ['Tom', 'Tomorrow we open at ten.'],
    ['(*_*)', '(*_*) ありがとうございます。'],
  ])('leaves %j alone in %s', (name, text) => {
    expect(of(check(text, G, name), 'pd.reviewer_name')).toEqual([]);
  });

  it('is checked only with personal data, and takes names with regex characters', () => {
    expect(check('山田太郎様', ['premiums_act'], '山田太郎')).toEqual([]);
    expect(reviewerNamePatterns('a.b (c)+')).toHaveLength(3);
    expect(of(check('a.b (c)+様', G, 'a.b (c)+'), 'pd.reviewer_name')).toHaveLength(1);
  });
});

describe('checkReply: the findings', () => {
  const text =
    '山田様、11月3日にご来院いただき、ありがとうございます。当院は地域No.1の最先端の設備で、必ず治ります。今なら半額です。担当の佐藤より090-1234-5678へご連絡します。';
  const findings = check(text, M, '山田花子');

  it('are sorted by place, placed, valid, and one per rule and place', () => {
    expect(findings.length).toBeGreaterThanOrEqual(8);
    expect(findings.map((f) => f.start)).toEqual(
      [...findings.map((f) => f.start)].sort((a, b) => a - b),
    );
    expectPlaced(text, findings);
    expect(complianceFindingSchema.array().parse(findings)).toEqual(findings);
    for (const f of findings)
      for (const g of findings)
        if (f !== g && f.rule_id === g.rule_id)
          expect(f.end <= g.start || g.end <= f.start).toBe(true);
  });

  it('carry the rule’s set, severity, title, reason and source', () => {
    const f = of(findings, 'med.superlative')[0];
    const rule = COMPLIANCE_RULES.find((r) => r.id === 'med.superlative');
    expect(f).toMatchObject({
      set: 'medical_ad',
      severity: 'block',
      title: rule?.title,
      reason: rule?.reason,
      source: rule?.source,
    });
  });

  it('merge overlapping matches of one rule', () => {
    expect(check('必ず治ります。').map((f) => [f.rule_id, f.phrase])).toEqual([
      ['med.guarantee', '必ず治ります'],
    ]);
  });

  it('follow the store’s sets: a restaurant gets 景品表示法, not 医療広告', () => {
    expect(check('日本一の味です。', G).map((f) => f.rule_id)).toEqual(['prem.no1']);
    expect(check('日本一の技術です。', M).map((f) => f.rule_id)).toEqual(['med.superlative']);
    expect(check('日本一の味です。', ['personal_data'])).toEqual([]);
    expect(check('日本一の味です。', [])).toEqual([]);
    expect(check('   ', M)).toEqual([]);
  });

  it('block or warn', () => {
    expect(hasBlocking(findings)).toBe(true);
    expect(hasBlocking(check('アンチエイジングのコースです。', B))).toBe(false);
    expect(hasBlocking([])).toBe(false);
  });

  it.each([
    'このたびはご来院いただき、温かいお言葉をありがとうございます。スタッフ一同、今後も丁寧な治療を心がけてまいります。',
    '最高の評価をいただき、ありがとうございます！またのご来店を心よりお待ちしております。',
    'ご不便をおかけして申し訳ございません。いただいたご意見をスタッフ全員で共有し、改善に努めてまいります。',
    '一番奥の席でゆっくりお過ごしいただけたとのこと、嬉しく思います。',
    '治療お疲れ様でした。気になることがございましたら、いつでもご相談ください。',
    '期間限定のパフェもお楽しみいただけたようで何よりです。',
    '口コミを通じて当院を知っていただけたとのこと、大変光栄です。',
    '完全予約制のため、お待たせすることなくご案内できるよう努めております。',
    '他院よりご紹介いただき、ありがとうございました。痛みに配慮した治療を心がけております。',
    'お子様にも楽しんでいただけたようで、スタッフ一同とても嬉しく思っております。',
    'またのお越しを心よりお待ちしております。お大事になさってください。',
  ])('find nothing in a polite reply: %s', (text) => {
    expect(check(text, M, 'Google ユーザー')).toEqual([]);
  });
});

describe('ruleSetsForCategory', () => {
  const medical = [...M];
  const beauty = [...B];
  const general = [...G];
  it.each<[{ id?: string; name?: string } | null, RuleSetId[]]>([
    [{ id: 'gcid:dentist', name: '歯科医院' }, medical],
    [{ id: 'gcid:medical_clinic' }, medical],
    [{ id: 'categories/gcid:chiropractor' }, medical],
    [{ id: 'GCID:Dermatologist' }, medical],
    [{ name: '歯科医院' }, medical],
    [{ name: '美容皮膚科' }, medical],
    [{ name: 'ｸﾘﾆｯｸ' }, medical],
    [{ name: '整骨院' }, medical],
    [{ id: 'gcid:beauty_salon' }, beauty],
    [{ id: 'gcid:hair_salon', name: '美容院' }, beauty],
    [{ id: 'gcid:cosmetics_store' }, beauty],
    [{ id: 'gcid:health_food_store' }, beauty],
    [{ id: 'gcid:pharmacy' }, beauty],
    [{ name: 'エステ' }, beauty],
    [{ name: '美容院' }, beauty],
    [{ id: 'gcid:restaurant', name: 'レストラン' }, general],
    [{ name: 'スパゲッティ専門店' }, general],
    [{ id: '', name: '' }, general],
    [{}, general],
    [null, general],
  ])('%j → %j', (category, sets) => {
    expect(ruleSetsForCategory(category)).toEqual(sets);
  });

  it('names each group and returns a fresh array', () => {
    expect(categoryGroupOf({ id: 'gcid:dentist' })).toBe('medical');
    const a = ruleSetsForCategory(null);
    a.push('medical_ad');
    expect(ruleSetsForCategory(null)).toEqual(general);
  });
});

describe('the rules as data', () => {
  const rules = [...COMPLIANCE_RULES, { ...REVIEWER_NAME_RULE, matchers: [] }];
  const OFFICIAL =
    /^https:\/\/(?:[a-z0-9-]+\.)*(?:mhlw\.go\.jp|caa\.go\.jp|ppc\.go\.jp|e-gov\.go\.jp)\//;
  const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;
  const PREFIX: Record<RuleSetId, string> = {
    medical_ad: 'med',
    pmd_act: 'pmd',
    premiums_act: 'prem',
    personal_data: 'pd',
  };

  it('have unique, stable ids that name their set', () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of rules) expect(r.id).toMatch(new RegExp(`^${PREFIX[r.set]}\\.[a-z0-9_]+$`));
  });

  it.each(rules.map((r) => [r.id, r] as const))(
    '%s cites an official page, in Japanese',
    (_id, r) => {
      expect(r.source.url).toMatch(OFFICIAL);
      expect(r.source.title).toMatch(JAPANESE);
      expect(r.title).toMatch(JAPANESE);
      expect(r.reason).toMatch(/[\p{Script=Hiragana}]/u);
      expect(r.reason.length).toBeGreaterThan(40);
      expect(r.reason.length).toBeLessThan(160);
      expect(r.reason.endsWith('。')).toBe(true);
      expect(COMPLIANCE_SEVERITIES).toContain(r.severity);
      expect(RULE_SET_IDS).toContain(r.set);
    },
  );

  it('write every pattern with the u flag only (checkReply adds g and i)', () => {
    for (const r of COMPLIANCE_RULES)
      for (const m of r.matchers) {
        expect(m.re.flags).toBe('u');
        expect(''.match(m.re)).toBeNull();
      }
  });

  it('cover every set, and label each set in Japanese', () => {
    for (const s of RULE_SET_IDS) expect(rules.some((r) => r.set === s)).toBe(true);
    expect(COMPLIANCE_SET_LABELS).toEqual({
      medical_ad: '医療広告ガイドライン',
      pmd_act: '薬機法',
      premiums_act: '景品表示法',
      personal_data: '個人情報',
    });
  });
});
