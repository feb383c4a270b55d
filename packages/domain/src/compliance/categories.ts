import { kanaInsensitive, normalizeText } from './normalize';
import type { RuleSetId } from './schemas';

/**
 * Which rule sets a store's reply is checked against, from its Google primary category
 * (ADR 0089). Medical care (医療広告ガイドライン applies; 整骨院, 鍼灸 and chiropractic, whose own
 * laws restrict advertising further, are held to it too) gets every set; beauty, cosmetics,
 * health foods and pharmacies get 薬機法 and 景品表示法; everything else 景品表示法. Personal
 * data applies to all.
 */
export const COMPLIANCE_CATEGORY_GROUPS = ['medical', 'beauty_health', 'general'] as const;
export type ComplianceCategoryGroup = (typeof COMPLIANCE_CATEGORY_GROUPS)[number];

export const CATEGORY_RULE_SETS: Readonly<Record<ComplianceCategoryGroup, readonly RuleSetId[]>> = {
  medical: ['medical_ad', 'pmd_act', 'premiums_act', 'personal_data'],
  beauty_health: ['pmd_act', 'premiums_act', 'personal_data'],
  general: ['premiums_act', 'personal_data'],
};

/** Google category ids (`gcid:…`, without the prefix) of medical care. */
export const MEDICAL_CATEGORY_IDS: readonly string[] = [
  'dentist',
  'dental_clinic',
  'cosmetic_dentist',
  'orthodontist',
  'pediatric_dentist',
  'endodontist',
  'periodontist',
  'prosthodontist',
  'oral_surgeon',
  'dental_implants_periodontist',
  'dental_implants_provider',
  'emergency_dental_service',
  'medical_clinic',
  'medical_center',
  'medical_spa',
  'doctor',
  'general_practitioner',
  'family_practice_physician',
  'internist',
  'hospital',
  'general_hospital',
  'private_hospital',
  'university_hospital',
  'dermatologist',
  'plastic_surgeon',
  'plastic_surgery_clinic',
  'cosmetic_surgeon',
  'hair_transplantation_clinic',
  'ophthalmologist',
  'ophthalmology_clinic',
  'eye_care_center',
  'pediatrician',
  'obstetrician_gynecologist',
  'gynecologist',
  'orthopedic_surgeon',
  'orthopedic_clinic',
  'psychiatrist',
  'mental_health_clinic',
  'otolaryngologist',
  'urologist',
  'gastroenterologist',
  'cardiologist',
  'allergist',
  'endocrinologist',
  'neurologist',
  'surgeon',
  'physical_therapy_clinic',
  'physiotherapist',
  'rehabilitation_center',
  'chiropractor',
  'osteopath',
  'acupuncturist',
  'acupuncture_clinic',
];

/** Google category ids of beauty, cosmetics, health foods and pharmacies. */
export const BEAUTY_HEALTH_CATEGORY_IDS: readonly string[] = [
  'beauty_salon',
  'hair_salon',
  'barber_shop',
  'nail_salon',
  'eyelash_salon',
  'facial_spa',
  'day_spa',
  'spa',
  'massage_spa',
  'massage_therapist',
  'hair_removal_service',
  'laser_hair_removal_service',
  'waxing_hair_removal_service',
  'tanning_studio',
  'skin_care_clinic',
  'beauty_supply_store',
  'cosmetics_store',
  'perfume_store',
  'health_and_beauty_shop',
  'health_food_store',
  'vitamin_and_supplements_store',
  'herbal_medicine_store',
  'pharmacy',
  'drugstore',
  'weight_loss_service',
];

/**
 * The Japanese display names, for a category whose id is missing or not listed above. Medical
 * is tried first: 美容皮膚科 and 美容クリニック are medical, 美容院 is beauty.
 */
export const MEDICAL_CATEGORY_NAME_RE =
  /歯科|歯医者|デンタル|クリニック|医院|病院|診療所|内科|外科|皮膚科|眼科|耳鼻|小児科|婦人科|産科|泌尿器|精神科|心療内科|整骨|接骨|鍼灸|整体|カイロプラクティック|医療|リハビリ/u;
export const BEAUTY_HEALTH_CATEGORY_NAME_RE =
  /美容|理容|ヘア|床屋|バーバー|ネイル|まつ(?:げ|毛)|アイラッシュ|エステ|脱毛|スパ(?!ゲ|イ)|リラクゼーション|マッサージ|化粧品|コスメ|健康食品|サプリ|ドラッグストア|薬局|薬店|漢方|ダイエット|ボディケア|日焼け|タンニング/u;

const MEDICAL_NAME = new RegExp(kanaInsensitive(MEDICAL_CATEGORY_NAME_RE.source), 'iu');
const BEAUTY_NAME = new RegExp(kanaInsensitive(BEAUTY_HEALTH_CATEGORY_NAME_RE.source), 'iu');

/** `categories/gcid:dentist`, `gcid:dentist` and `dentist` alike. */
const bareId = (id: string) =>
  id
    .trim()
    .toLowerCase()
    .replace(/^categories\//, '')
    .replace(/^gcid:/, '');

/** The group of a store's Google primary category: by its id when known, else by its name. */
export function categoryGroupOf(
  category: { id?: string; name?: string } | null,
): ComplianceCategoryGroup {
  if (!category) return 'general';
  const id = bareId(category.id ?? '');
  if (MEDICAL_CATEGORY_IDS.includes(id)) return 'medical';
  if (BEAUTY_HEALTH_CATEGORY_IDS.includes(id)) return 'beauty_health';
  const name = normalizeText(category.name ?? '');
  if (MEDICAL_NAME.test(name)) return 'medical';
  if (BEAUTY_NAME.test(name)) return 'beauty_health';
  return 'general';
}

/** The rule sets a store's replies are checked against (a new array, in `RULE_SET_IDS` order). */
export const ruleSetsForCategory = (
  category: { id?: string; name?: string } | null,
): RuleSetId[] => [...CATEGORY_RULE_SETS[categoryGroupOf(category)]];
