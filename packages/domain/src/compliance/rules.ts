import type { ComplianceSeverity, ComplianceSource, RuleSetId } from './schemas';
import { COMPLIANCE_SOURCES } from './sources';

/**
 * One pattern of a rule. It runs over the normalised reply (`normalizeForMatch`: NFKC, variant
 * kanji folded), case-blind and blind to hiragana/katakana (`kanaInsensitive`): write it once,
 * in the usual spelling, with the `u` flag.
 */
export type ComplianceMatcher = {
  re: RegExp;
  /** The sentence around the match must also match this (the context the phrase needs)… */
  inSentence?: RegExp;
  /** …and must not match this (a basis given, thanks for a rating). */
  notInSentence?: RegExp;
  /** A last test of the matched text itself (an e-mail address's domain). */
  accept?: (match: string) => boolean;
};

/**
 * A rule of the reply check (ADR 0089): deterministic data, so the check works offline and the
 * rule that fired is what the audit log keeps. Its title and reason are shown to the shop owner
 * with the source it comes from.
 */
export type ComplianceRule = {
  /** Stable: stored with overrides in the audit log. */
  id: string;
  set: RuleSetId;
  severity: ComplianceSeverity;
  title: string;
  reason: string;
  source: ComplianceSource;
  matchers: readonly ComplianceMatcher[];
  /** Left out when one of these sets is checked too: a rule there says the same more strictly. */
  yieldsTo?: readonly RuleSetId[];
};

/*
 * The titles and reasons below are rule data (ADR 0089, docs/compliance.md): each line that
 * holds one carries the `ja-data` mark the text catalog's test asks for.
 */

/** Pressing for now: 今だけ, 期間限定価格, 先着, 残りわずか. */
const LIMITED_TIME_RE =
  /今だけ(?!で(?:なく|は))|今なら|本日限り|今月(?:末)?(?:まで|限り)(?:の)?(?:特別|限定|割引|価格|キャンペーン)|期間限定(?:の|で)?(?:価格|料金|割引|特典|特価|キャンペーン|セール|クーポン|プラン|モニター|\d)|先着\s?\d+\s?(?:名|組|人)|残り(?:わずか|僅か|\d+\s?(?:名|枠|席))|(?:キャンペーン|セール)(?:中|実施|価格|料金)/u;
/** A price set against another: 通常5,000円が…, 5,000円→2,500円. */
const DOUBLE_PRICE_RE =
  /(?:通常|定価|元値|正規|市価)(?:価格|料金)?(?:は)?\s?[\d,]+\s?円(?:[^。!?\n]{0,6}?)(?:→|⇒|->|が|を|から|のところ)|[\d,]+\s?円\s?(?:→|⇒|->)\s?[\d,]+\s?円/u;
/** Discounts and the cheapest price: 20%オフ, 半額, 3割引き, 業界最安値. */
const DISCOUNT_RE =
  /\d+\s?%\s?(?:OFF|オフ|引き|割引)|半額|(?<!\d)[1-9]割(?:引き|オフ|OFF)|(?:業界|地域|日本|県内)?最安(?:値)?/u;

/** 医療広告ガイドライン: clinics, dentists, hospitals and other care providers. */
const MEDICAL_RULES: ComplianceRule[] = [
  {
    id: 'med.comparison',
    set: 'medical_ad',
    severity: 'block',
    title: '他院との比較（比較優良広告）', // ja-data: rule title
    reason:
      '医療機関は、事実であっても他院より優れていると示す広告が禁止されています。「他院より」「地域一番」などは使わず、当院で行っていることを事実のまま書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medComparison,
    matchers: [
      {
        re: /他(?:院|医院|病院|クリニック|の(?:歯科|医院|病院|クリニック|医療機関))(?:より(?!(?:ご|お)?紹介|転院|お越し|移られ|来られ)|と(?:は)?(?:比べ|比較|違)|に(?:比べ|比較|はない|ない)|では(?:できない|断られ|難しい))/u,
      },
      { re: /どこよりも/u },
      {
        re: /(?:日本|国内|全国|県内|府内|都内|道内|市内|区内|町内|地域|エリア|近隣|地元)(?:で|の中で|では)?(?:一番|1番|いちばん|随一|有数|屈指|トップ(?:クラス)?|最多|最大(?!限)|最も|もっとも)(?![^。!?\n]{0,8}?を目指)/u,
      },
      { re: /大学病院(?:と同等|並み|レベル|以上)/u },
    ],
  },
  {
    id: 'med.superlative',
    set: 'medical_ad',
    severity: 'block',
    title: '最上級の表現（日本一・No.1・最高など）', // ja-data: rule title
    reason:
      '「日本一」「No.1」「最高の医療」「最先端」のような最上級の表現は、医療広告では比較優良広告・誇大広告として禁止されています。お礼の言葉と、当院の取り組みを具体的な事実で書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medExaggeration,
    matchers: [
      {
        re: /(?:日本|世界|業界)一(?!周|緒|度|回|人|つ|部|日|時|年|月|番)(?![^。!?\n]{0,8}?を目指)/u,
      },
      {
        re: /(?:(?<![a-z])No\.?\s?1(?!\d)|ナンバー(?:ワン|1(?!\d))|(?<![\d.])第?[1一]位(?!\d))(?![^。!?\n]{0,8}?を目指)/u,
      },
      {
        re: /最高(?:級|峰|水準|レベル|品質|クラス|の(?:医療|治療|技術|施術|設備|サービス|品質|クオリティ|仕上がり|結果|ケア|環境|材料|素材|機器|ドクター|医師|スタッフ))/u,
      },
      { re: /(?:技術|治療|医療|施術|設備|腕)(?:は|が|も)(?:[^。!?\n]{0,6}?)最高/u },
      { re: /最先端|最新鋭|最良の|最上級|超一流|トップクラス|トップレベル|世界トップ/u },
    ],
  },
  {
    id: 'med.absolute',
    set: 'medical_ad',
    severity: 'block',
    title: '「絶対」「完全」「成功率100%」などの断定', // ja-data: rule title
    reason:
      '「絶対安全」「完全に治る」「成功率100%」「副作用なし」のように、医学上あり得ない断定や治療成績の数字は虚偽・誇大広告にあたります。「リスクや副作用も含めて丁寧にご説明します」のように書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medFalse,
    matchers: [
      {
        re: /絶対(?:に)?(?:安全|安心|成功|失敗しない|大丈夫|治|痛く|効果|満足|きれい|綺麗)/u,
      },
      {
        re: /(?:完全|完璧)(?:に|な)?(?:治|完治|除去|無痛|成功|安全|消え|消す|なくな|元通り|再生)/u,
      },
      {
        re: /100\s?(?:%|パーセント)(?:の)?(?:安全|成功|効果|治|満足|改善|痛くない|仕上がり)|(?:成功率|満足度|治癒率|完治率|改善率|安全性)(?:は|が)?(?:\s?約)?\s?\d{2,3}(?:\.\d+)?\s?(?:%|パーセント)/u,
      },
      { re: /後悔(?:は)?(?:させ(?:ません|ない)|しない|いたしません)/u },
      {
        re: /失敗(?:しない|のない|なし|ゼロ|は(?:ありません|ございません|しません))|リスク(?:は)?(?:ゼロ|なし|のない|はありません|もありません)|副作用(?:は|が|の)?(?:ゼロ|なし|ない|ありません|ございません|一切)/u,
      },
    ],
  },
  {
    id: 'med.guarantee',
    set: 'medical_ad',
    severity: 'block',
    title: '治療効果の保証', // ja-data: rule title
    reason:
      '「必ず治る」「確実に改善」「効果を保証」のように治療の効果を約束する表現は、虚偽・誇大広告として禁止されています。効果には個人差があるため、「気になることはいつでもご相談ください」のように書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medFalse,
    matchers: [
      {
        re: /(?:必ず|確実に|絶対に?)(?:[^。!?\n]{0,8}?)(?:治(?!療)|良くな|よくな|改善|効果が(?:出|あ)|結果が出|成功|痩せ|きれいにな|綺麗にな|元に戻|ご?満足いただけ)/u,
      },
      {
        re: /(?:効果|結果|改善|治癒|完治|仕上がり)(?:を|は|も)?(?:保証|お約束|約束)(?!(?:は|が)?でき(?:ません|ない))/u,
      },
      { re: /(?<!早く)(?:治|なお)(?:ります|せます|せる|してみせ)(?!ように|よう|か)/u },
      {
        re: /(?<!\d)[1一]回で(?:治|完治|改善|効果)|即効性|即効で(?:治|効|改善)|その日のうちに(?:治|痛みが(?:消|なくな))/u,
      },
    ],
  },
  {
    id: 'med.painless',
    set: 'medical_ad',
    severity: 'block',
    title: '「痛みゼロ」「全く痛くない」などの約束', // ja-data: rule title
    reason:
      '痛みの感じ方には個人差があり、「痛みゼロ」「全く痛くありません」と約束するのは誇大広告にあたります。「痛みに配慮した治療を心がけています」のように書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medExaggeration,
    matchers: [
      {
        re: /痛み(?:は)?(?:ゼロ|0(?!\d)|一切(?:ありません|ない|ございません)|(?:全く|まったく|全然)(?:ありません|ない|ございません))/u,
      },
      {
        re: /(?:全く|まったく|全然|一切|絶対に?|決して)痛く(?:ない|ありません|なりません|ございません)/u,
      },
      {
        re: /(?:痛くない|痛みのない|無痛の?)(?:治療|施術|抜歯|注射|手術|麻酔)(?:です|でございます|をお約束|を保証|が(?:受けられ|可能))/u,
      },
      { re: /無痛(?:を保証|をお約束|です(?=[。!]|$))/u },
    ],
  },
  {
    id: 'med.testimonial',
    set: 'medical_ad',
    severity: 'block',
    title: '体験談・患者様の声の広告利用', // ja-data: rule title
    reason:
      '治療の内容や効果についての患者の体験談を広告に使うことは禁止されています。口コミをホームページ等に載せる旨や、他の患者の効果・満足を伝える表現は避け、お礼とご意見への対応を書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medTestimonial,
    matchers: [
      {
        re: /(?:患者|お客|利用者)(?:様|さま|さん)の(?:声|ご感想|体験談)(?:として|を(?:掲載|紹介|ご紹介|使わせ|引用)|に(?:掲載|ご?紹介))/u,
      },
      {
        re: /(?:口コミ|クチコミ|レビュー|ご感想|お言葉)(?:を|は)(?:[^。!?\n]{0,6}?)(?:ホームページ|HP|サイト|ウェブ|web|SNS|インスタ|Instagram|ブログ|チラシ|院内)(?:に|で|へ)(?:掲載|紹介|ご紹介|使わせ|引用|載せ)/u,
      },
      { re: /体験談(?:として|を(?:掲載|紹介|ご紹介))/u },
      {
        re: /(?:他の|ほかの|多くの|たくさんの|皆様|みなさま|皆さま)(?:患者|お客|方)(?:様|さま|さん|々)?(?:から|にも)?(?:も|が)?(?:[^。!?\n]{0,10}?)(?:効果|改善|治(?!療)|良くな|喜ば|満足|実感|きれいにな|痩せ|好評|評判|痛くなかった|痛みがなかった)/u,
      },
      {
        re: /(?:治|改善|良くな|痩せ|消え)(?:った|した|りました|しました|ました|た)(?:お客|患者|方)(?:様|さま|さん)?(?:も|が)(?:多数|多く|たくさん|続出|大勢)/u,
      },
    ],
  },
  {
    id: 'med.review_endorse',
    set: 'medical_ad',
    severity: 'warn',
    title: '「口コミ通り」による効果の裏付け', // ja-data: rule title
    reason:
      '「口コミ通り」と返すと、投稿者の体験談（治療の効果など）を医院が認めて宣伝する形になるおそれがあります。内容を肯定せず、ご来院へのお礼を書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medTestimonial,
    matchers: [
      {
        re: /(?:口コミ|クチコミ|レビュー|評判)(?:に(?:書かれ|書い|あ)[^。!?\n]{0,4}?)?(?:の)?(?:通り|とおり|どおり)/u,
      },
      {
        re: /(?:口コミ|クチコミ|レビュー)(?:に|で)?も?(?:ある|あった|書かれている|書かれていた|書いていただいた|ご覧いただける)(?:よう|通り|とおり)/u,
      },
    ],
  },
  {
    id: 'med.before_after',
    set: 'medical_ad',
    severity: 'block',
    title: 'ビフォーアフター・症例写真への誘導', // ja-data: rule title
    reason:
      '治療前後の写真（ビフォーアフター）は、治療内容・費用・リスクなどの詳しい説明を添えない限り広告できません。返信では写真や症例への誘導をせず、詳しくは診察時に説明する旨を書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medBeforeAfter,
    matchers: [
      {
        re: /ビフォー\s?[・/&+]?\s?アフター|before\s?[・/&+]?\s?after|(?:治療|施術|手術)(?:の)?前後(?:の)?(?:写真|画像|お写真|比較)|症例写真|術前術後/u,
      },
    ],
  },
  {
    id: 'med.price_lure',
    set: 'medical_ad',
    severity: 'warn',
    title: '費用を強調した誘引（キャンペーン・割引）', // ja-data: rule title
    reason:
      '「今だけ」「半額」「〇%オフ」など費用を強調して受診を促す表現は、医療広告ガイドラインで品位を損ねる広告として不適切とされています。料金は正確な金額を案内するにとどめてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.medDignity,
    matchers: [
      { re: LIMITED_TIME_RE },
      { re: DOUBLE_PRICE_RE },
      { re: DISCOUNT_RE },
      {
        re: /格安|激安|破格|(?:初回|今回)(?:限定)?(?:無料|割引|半額)|無料(?:で)?(?:施術|治療|体験|キャンペーン|プレゼント)|モニター(?:価格|料金|募集)/u,
      },
    ],
  },
];

/** 薬機法: cosmetics, health foods and beauty services claiming a drug's effects. */
const PMD_RULES: ComplianceRule[] = [
  {
    id: 'pmd.cure',
    set: 'pmd_act',
    severity: 'block',
    title: '病気や症状が治る・改善するという表現', // ja-data: rule title
    reason:
      '医薬品でない化粧品・健康食品や施術について「治る」「改善する」「予防できる」と書くと、薬機法が禁じる医薬品的な効能効果の広告になるおそれがあります。「心地よいひとときを」のように効能に触れない表現にしてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.pmdClaims,
    yieldsTo: ['medical_ad'],
    matchers: [
      {
        re: /(?:病気|疾患|症状|アトピー|ニキビ|吹き出物|湿疹|かぶれ|便秘|肩こり|肩凝り|腰痛|頭痛|不眠|冷え性|花粉症|高血圧|糖尿病|がん(?!ば)|癌|水虫|薄毛|抜け毛|関節痛|神経痛|生理痛|更年期|自律神経)(?:が|も|まで|を|の)?(?:[^。!?\n]{0,4}?)(?:治(?!療)|完治|改善|解消|予防|緩和|効く|効きます|に効|減(?:る|り|少|らす|らせ))/u,
      },
      { re: /治(?:る|ります|せる|せます|った(?!ら)|りました)(?!ように|よう|といい|まで)|完治/u },
      { re: /発毛(?:効果|します|する|させ|を実感)|(?:毛|髪|産毛)が(?:生え|増え)/u },
    ],
  },
  {
    id: 'pmd.skin',
    set: 'pmd_act',
    severity: 'block',
    title: 'シミ・シワが消えるなどの肌への効能', // ja-data: rule title
    reason:
      '「シミが消える」「シワがなくなる」「肌が再生する」は化粧品に認められた効能の範囲を超え、薬機法違反になるおそれがあります。「肌を整える」「うるおいを与える」など認められた範囲の表現にしてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.pmdClaims,
    matchers: [
      {
        re: /(?:(?<!楽|たの)シミ|(?<![うも申])シワ(?!け)|小じわ|そばかす|くすみ|たるみ|ほうれい線|ニキビ跡|毛穴|ほくろ|肝斑)(?:が|を|も)?(?:[^。!?\n]{0,3}?)(?:消え|消す|消し|消せ|取れ|とれ|取り除|なくな|無くな|薄くな|改善|解消|治|除去|目立たなくな)/u,
      },
      { re: /(?:肌|皮膚|細胞)(?:が|を|の)?(?:再生|修復|生まれ変わ)/u },
    ],
  },
  {
    id: 'pmd.rejuvenation',
    set: 'pmd_act',
    severity: 'block',
    title: '若返り・老化防止の表現', // ja-data: rule title
    reason:
      '「若返る」「老化を防ぐ」「マイナス5歳肌」は医薬品的な効能効果にあたり、化粧品や健康食品、施術の広告では使えません。「年齢に応じたお手入れ（エイジングケア）」のように書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.pmdClaims,
    matchers: [
      {
        re: /若返(?:る|り|ら|ります|った)|\d+\s?歳(?:も)?若(?:く|返(?:る|り|ります|った)?|見え)|(?:マイナス|-)\s?\d+\s?歳(?:肌|若)|老化(?:を|が)?(?:防|止め|止ま|予防|改善|遅らせ)|(?:年齢|歳)を(?:止め|巻き戻)/u,
      },
    ],
  },
  {
    id: 'pmd.anti_aging',
    set: 'pmd_act',
    severity: 'warn',
    title: '「アンチエイジング」の表現', // ja-data: rule title
    reason:
      '「アンチエイジング」は老化を防ぐ・若返るという効能と受け取られやすく、化粧品や健康食品の広告では使えない場合があります。「エイジングケア（年齢に応じたお手入れ）」などに言い換えてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.pmdClaims,
    matchers: [{ re: /アンチエイジング/u }],
  },
  {
    id: 'pmd.slimming',
    set: 'pmd_act',
    severity: 'block',
    title: '痩せる・脂肪燃焼などの効果', // ja-data: rule title
    reason:
      '「痩せる」「脂肪を燃焼」「〇kg減」は身体の機能に働きかける医薬品的な効能効果で、健康食品や化粧品では広告できません（施術でも根拠のない表示は景品表示法の問題になります）。効果を約束しない表現にしてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.pmdClaims,
    matchers: [
      {
        re: /(?<!い)(?:痩|や)せ(?:る|ます|られ|ました|た(?!め)|効果)|(?:痩身|ダイエット)効果|脂肪(?:を|が)?(?:燃焼|分解|溶か|溶け|落と|減ら)|\d+(?:\.\d+)?\s?(?:kg|キロ)(?:の)?(?:減量|痩せ|やせ|ダウン|減)|代謝(?:が|を)?(?:上が|上げ|アップ)/u,
      },
      {
        re: /(?:飲む|塗る|貼る|着る|食べる)だけで(?:[^。!?\n]{0,6}?)(?:痩|やせ|効果|改善|治|消え|若返)/u,
      },
    ],
  },
  {
    id: 'pmd.health_food',
    set: 'pmd_act',
    severity: 'block',
    title: '免疫力アップ・病気予防などの効能', // ja-data: rule title
    reason:
      '「免疫力が上がる」「血圧が下がる」「がんを予防」「デトックス」は医薬品的な効能効果にあたり、健康食品などでは広告できません。原材料や味、使い方など商品の特徴を書くにとどめてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.pmdClaims,
    matchers: [
      {
        re: /免疫(?:力)?(?:が|を)?(?:上が|上げ|アップ|高ま|高め|向上|強化|活性)|(?:がん|癌|風邪|インフルエンザ|感染症|病気|生活習慣病|認知症)(?:の|を)?(?:予防|防ぐ|防止|にならない)|血液(?:が|を)?(?:サラサラ|きれい)|(?:血圧|血糖値|コレステロール)(?:が|を)?(?:下が|下げ)|デトックス|解毒|自然治癒力|体質(?:が|を)?改善/u,
      },
    ],
  },
];

/** 景品表示法: misleading quality and price claims, and stealth marketing. */
const PREMIUMS_RULES: ComplianceRule[] = [
  {
    id: 'prem.no1',
    set: 'premiums_act',
    severity: 'block',
    title: '根拠の示されない「No.1」「第1位」', // ja-data: rule title
    reason:
      '「No.1」「第1位」「地域一番」は、客観的な調査の根拠（調査した機関・時期・対象）を併記しない限り、実際より優れていると誤認させる表示になります。根拠を示せない場合は使わないでください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.premQuality,
    yieldsTo: ['medical_ad'],
    matchers: [
      {
        re: /(?:(?<![a-z])No\.?\s?1(?!\d)|ナンバー(?:ワン|1(?!\d))|(?<![\d.])第?[1一]位(?!\d)|(?:日本|世界|業界)一(?!周|緒|度|回|人|つ|部|日|時|年|月|番))(?![^。!?\n]{0,8}?を目指)/u,
        notInSentence: /調べ|調査|出典|※/u,
      },
      {
        re: /(?:日本|国内|全国|県内|府内|都内|道内|市内|区内|町内|地域|エリア|近隣|地元)(?:で|の中で|では)?(?:一番|1番|いちばん)(?![^。!?\n]{0,8}?を目指)/u,
        notInSentence: /調べ|調査|出典|※/u,
      },
    ],
  },
  {
    id: 'prem.first_only',
    set: 'premiums_act',
    severity: 'warn',
    title: '「業界初」「唯一」などの表示', // ja-data: rule title
    reason:
      '「業界初」「地域初」「唯一の技術」は事実であることの根拠が必要で、根拠がなければ優良誤認表示になります。確かな根拠がある場合だけ、その内容とともに書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.premQuality,
    matchers: [
      {
        re: /(?:業界|日本|国内|世界|県内|府内|都内|道内|市内|区内|地域|関西|関東|東海|九州|東北|北海道|四国|北陸|沖縄)初(?!め|回|日|診|夏|冬|春|秋)/u,
      },
      {
        re: /唯一(?:無二|の(?:技術|施術|治療|サロン|お店|店舗|医院|クリニック|メニュー|商品|方法|資格|認定|専門))/u,
      },
      {
        re: /(?:当店|当院|当サロン|弊社|当社|当クリニック)(?:だけ|のみ)(?:の|が|で)(?:技術|施術|治療|方法|メニュー|商品|サービス)/u,
      },
    ],
  },
  {
    id: 'prem.double_price',
    set: 'premiums_act',
    severity: 'warn',
    title: '二重価格・割引率の表示', // ja-data: rule title
    reason:
      '「通常〇円→〇円」「〇%オフ」などの比較価格は、その価格で相当の期間実際に販売していなければ有利誤認表示になります。返信では価格の比較を避け、正確な料金を案内してください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.premAdvantage,
    yieldsTo: ['medical_ad'],
    matchers: [{ re: DOUBLE_PRICE_RE }, { re: DISCOUNT_RE }],
  },
  {
    id: 'prem.limited_time',
    set: 'premiums_act',
    severity: 'warn',
    title: '「今だけ」「期間限定」などの誘引', // ja-data: rule title
    reason:
      '「今だけ」「期間限定」「残りわずか」などは、実際には期間や数量の限定がない場合、有利誤認表示になります。返信で来店や購入を急がせる表現は避けてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.premAdvantage,
    yieldsTo: ['medical_ad'],
    matchers: [{ re: LIMITED_TIME_RE }],
  },
  {
    id: 'prem.refund',
    set: 'premiums_act',
    severity: 'block',
    title: '返金保証のうたい文句', // ja-data: rule title
    reason:
      '「効果がなければ全額返金」「返金保証」は、条件が厳しく実際には返金されにくい場合、有利誤認表示になります。返信で保証をうたわず、条件は公式の案内で正確に示してください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.premAdvantage,
    matchers: [
      {
        re: /返金保証|(?:効果|結果|満足)(?:が|を|に)?(?:[^。!?\n]{0,8}?)(?:なければ|ない場合|出なかった場合|感じられなければ|いただけなければ|いただけない場合)(?:[^。!?\n]{0,8}?)返金|全額返金(?:いた)?(?:します|いたします)(?:ので|から)?(?:[^。!?\n]{0,6}?)(?:安心|お試し|お気軽)/u,
      },
    ],
  },
  {
    id: 'prem.review_incentive',
    set: 'premiums_act',
    severity: 'block',
    title: '口コミ投稿の見返り（ステマ規制）', // ja-data: rule title
    reason:
      '割引や特典と引き換えに口コミ（特に高評価）を頼むと、その口コミは事業者の広告とみなされ、ステルスマーケティング規制（景品表示法）違反になります。Google のポリシーでも禁止されています。見返りの案内は削除してください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.premStealth,
    matchers: [
      {
        re: /(?:口コミ|クチコミ|レビュー)(?:を)?(?:投稿|記入|書い|書き込|いただい|頂い|してくださ|いただけ|頂け)(?:[^。!?\n]{0,12}?)(?:方|お客様|場合|と|たら|で|ば)(?:[^。!?\n]{0,12}?)(?:割引|値引|プレゼント|進呈|特典|クーポン|キャッシュバック|ポイント|\d+\s?円(?:引き|オフ|OFF|分)|\d+\s?%\s?(?:オフ|OFF|引き)|無料)/u,
      },
      {
        re: /(?:★|☆|星)\s?[45](?:つ)?(?:を|の|で)?(?:[^。!?\n]{0,10}?)(?:割引|値引|プレゼント|進呈|特典|クーポン|キャッシュバック|\d+\s?円|無料)/u,
      },
      { re: /(?:口コミ|クチコミ|レビュー)(?:投稿)?(?:特典|キャンペーン|割引|クーポン)/u },
    ],
  },
  {
    id: 'prem.rating_request',
    set: 'premiums_act',
    severity: 'warn',
    title: '高評価（★5）の依頼', // ja-data: rule title
    reason:
      '「★5をお願いします」のように高い評価を求めると口コミが公正でなくなり、Google のポリシー違反やステマと受け取られるおそれがあります。「率直なご感想をお聞かせください」のように書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.premStealth,
    matchers: [
      {
        re: /(?:★|☆|星)\s?5(?:つ)?(?:の評価)?(?:を|で)?(?:[^。!?\n]{0,6}?)(?:お願い|つけて|付けて|いただけると|いただければ)|高評価(?:を|の)?(?:[^。!?\n]{0,6}?)(?:お願い|いただけると|いただければ)/u,
      },
    ],
  },
];

/** An e-mail address in the normalised text (NFKC turns ＠ into @). */
const EMAIL_RE = /(?<![\w.%+-])[\w.%+-]+@[\w-]+(?:\.[\w-]+)+/u;

/** Words that tie a health term to the person replied to, in the same sentence. */
const ABOUT_THE_REVIEWER =
  /(?<!皆)様(?!々)|(?<!皆|みな)さま|(?<![皆者]|みな)さん|あなた|とのこと|お悩み|ご相談|ご来院|ご来店|ご来局|お越し|ご心配|お大事|経過|治療中|その後|ご自身|ご家族|ご本人|されていた|されている|されており|の際|お受け|でしたね|ましたね|お辛|おつら|大変/u;

/** Role addresses (info@, contact@…): a shop's own desk, not a person. */
const ROLE_MAILBOX =
  /^(?:info|contact|support|reserve|reservation|yoyaku|office|mail|clinic|salon|shop|store|web|customer|inquiry|otoiawase|toiawase|uketsuke|desk|hello|admin|sales|recruit|press|pr|noreply|no-reply|staff|service|center|help)@/iu;

/** Free and mobile-carrier mail: an address there belongs to a person. */
const PERSONAL_MAIL_DOMAIN =
  /@(?:gmail\.com|googlemail\.com|yahoo\.co\.jp|ymail\.ne\.jp|icloud\.com|me\.com|mac\.com|outlook\.(?:com|jp)|hotmail\.(?:com|co\.jp)|live\.jp|docomo\.ne\.jp|ezweb\.ne\.jp|au\.com|softbank\.ne\.jp|i\.softbank\.jp|ybb\.ne\.jp|nifty\.com|ocn\.ne\.jp|biglobe\.ne\.jp|so-net\.ne\.jp)$/iu;

const isPersonalMail = (address: string) => PERSONAL_MAIL_DOMAIN.test(address);
const isRoleMail = (address: string) => ROLE_MAILBOX.test(address);

/** Personal data: the reviewer, the visit, the staff, health, contact details. */
const PERSONAL_RULES: ComplianceRule[] = [
  {
    id: 'pd.visit_date',
    set: 'personal_data',
    severity: 'warn',
    title: '来店日時・予約の内容', // ja-data: rule title
    reason:
      '「〇月〇日にご来院」「〇時のご予約」など店舗の記録から分かる来店日時を書くと、本人が公開していない情報を第三者に明かすことになるおそれがあります。日時には触れずにお礼を書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.privacy,
    matchers: [
      {
        re: /(?<![\d/])(?:\d{1,2}\s?月\s?\d{1,2}\s?日|\d{1,2}\/\d{1,2}(?![\d/]))(?:\s?\([月火水木金土日祝]\))?(?:の|に|は)?(?:[^。!?\n]{0,6}?)(?:ご?来院|ご?来店|ご?来局|お越し|ご予約|ご利用|ご?受診|施術|診察|ご来館|ご宿泊|ご来場|ご相談|ご注文)/u,
      },
      {
        re: /(?<![\d:])\d{1,2}\s?(?:時|:\d{2})(?:\s?\d{1,2}\s?分|半)?(?:頃|ごろ)?(?:から|~|〜)?(?:の|に)?(?:ご予約|ご?来院|ご?来店|お越し|施術|診察|ご利用)/u,
      },
      { re: /ご予約(?:の|いただいた|頂いた)(?:お?時間|日時|時刻|お日にち)/u },
      {
        re: /(?:ご?来院|ご?来店|ご?来局|ご予約|お越し|ご利用|ご?受診)(?:日|の日)?(?:は|が|の)?\s?(?:\d{1,2}\s?月\s?\d{1,2}\s?日|\d{1,2}\/\d{1,2}(?![\d/]))(?!\s?(?:まで|から|より|以降|以前|〜|~|-))/u,
      },
      {
        re: /(?:先週|昨日|一昨日|本日|今朝|[月火水木金土日]曜(?:日)?)の\s?\d{1,2}\s?(?:時|:\d{2})/u,
      },
    ],
  },
  {
    id: 'pd.staff_name',
    set: 'personal_data',
    severity: 'warn',
    title: '担当スタッフの名前', // ja-data: rule title
    reason:
      '「担当の〇〇」と書くと、投稿者が誰の担当だったかという来店の記録と、スタッフ個人の名前を公開することになります。「担当スタッフ」「スタッフ一同」と書いてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.privacy,
    matchers: [
      {
        re: /担当(?:医師?|歯科医師?|歯科衛生士|衛生士|スタイリスト|セラピスト|アシスタント|看護師|スタッフ|トレーナー|ドクター)?(?:の|させていただいた|させていただきました|いたしました|した)\s?(?!(?:者|方|もの|医師|医|先生|歯科医師|歯科衛生士|衛生士|看護師|スタッフ|受付|係|部署|部門|窓口|際|時|日|件|皆様|皆|一同|院長|店長|施術者|責任者|担当者|スタイリスト|セラピスト|ドクター)(?![\p{Script=Han}]))(?:\p{Script=Han}{1,4}|\p{Script=Katakana}[\p{Script=Katakana}ー]{1,7})(?=より|から|が|も|です|でした|、|。|\s|さん|先生|医師|$)/u,
      },
    ],
  },
  {
    id: 'pd.health_info',
    set: 'personal_data',
    severity: 'warn',
    title: '病名・症状・治療内容', // ja-data: rule title
    reason:
      '病名や症状、治療・施術の内容は要配慮個人情報で、返信で触れると本人の同意なく公開することになります。投稿者が自ら書いていても繰り返さず、「その後お変わりありませんか」のような一般的な言葉にしてください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.privacyHealth,
    matchers: [
      {
        re: /(?:虫歯|むし歯|歯周病|歯槽膿漏|親知らず|抜歯|根管治療|インプラント|妊娠|妊婦|不妊|出産|つわり|うつ病|鬱|抑うつ|適応障害|パニック障害|発達障害|ADHD|認知症|癌|悪性腫瘍|腫瘍|糖尿病|高血圧|アトピー|ヘルニア|ぎっくり腰|骨折|捻挫|性感染症|性病|HIV|薄毛|AGA|脱毛症|ワキガ|多汗症|痔|更年期|生理痛|不眠症|喘息|持病|脂肪吸引|豊胸|二重(?:整形|埋没|手術)|包茎|ボトックス|ヒアルロン酸注射|中絶|ピル|(?<![a-z])ED(?![a-z]))(?!(?:の)?(?:予防|検診|対策|ケア))/u,
        inSentence: ABOUT_THE_REVIEWER,
      },
    ],
  },
  {
    id: 'pd.phone_mobile',
    set: 'personal_data',
    severity: 'block',
    title: '携帯電話番号', // ja-data: rule title
    reason:
      '携帯電話番号は個人のものであることが多く、返信に載せると個人情報の公開になります。連絡先は店舗の代表番号やお問い合わせ窓口を案内してください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.privacy,
    matchers: [{ re: /(?<!\d)0[789]0\s?[-‐‑–—−ー(]?\s?\d{4}\s?[-‐‑–—−ー)]?\s?\d{4}(?!\d)/u }],
  },
  {
    id: 'pd.email_personal',
    set: 'personal_data',
    severity: 'block',
    title: '個人のメールアドレス', // ja-data: rule title
    reason:
      'フリーメールや携帯会社のメールアドレスは個人のものと考えられ、返信に載せると個人情報の公開になります。店舗の公式の問い合わせ窓口を案内してください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.privacy,
    matchers: [{ re: EMAIL_RE, accept: isPersonalMail }],
  },
  {
    id: 'pd.email',
    set: 'personal_data',
    severity: 'warn',
    title: 'スタッフ個人宛てと思われるメールアドレス', // ja-data: rule title
    reason:
      'info@ や contact@ のような窓口用でないアドレスは、スタッフ個人のものかもしれません。店舗の公式の問い合わせ窓口のアドレスを案内してください。', // ja-data: rule reason
    source: COMPLIANCE_SOURCES.privacy,
    matchers: [{ re: EMAIL_RE, accept: (a) => !isPersonalMail(a) && !isRoleMail(a) }],
  },
];

/** The reviewer's own name: a rule whose pattern `checkReply` builds from the name it is given. */
export const REVIEWER_NAME_RULE: Omit<ComplianceRule, 'matchers'> = {
  id: 'pd.reviewer_name',
  set: 'personal_data',
  severity: 'warn',
  title: '投稿者のお名前', // ja-data: rule title
  reason:
    '返信に投稿者のお名前を書くと、その方が来店・受診したことを店舗側から公表することになります（医療機関では特に配慮が必要です）。「お客様」「投稿者様」と書いてください。', // ja-data: rule reason
  source: COMPLIANCE_SOURCES.privacy,
};

/** Every fixed rule, in the order findings at the same place are listed. */
export const COMPLIANCE_RULES: readonly ComplianceRule[] = [
  ...MEDICAL_RULES,
  ...PMD_RULES,
  ...PREMIUMS_RULES,
  ...PERSONAL_RULES,
];
