/**
 * The optional non-English filter of step 2: the released code drops a QA pair when its question or
 * its answer "contain[s] any non-English text" (manestay/dogmatiq `step2_merge_paraphrases.py`,
 * `is_eng` from an unpublished `lib`). Here a text is English unless it holds a letter of a script
 * other than Latin (accented letters included) or Greek (symbols such as α in scientific text):
 * Chinese, Persian or Russian text left untranslated in a pair fails it.
 */
const FOREIGN_LETTER = /(?![\p{Script=Latin}\p{Script=Greek}])\p{L}/u;

export function isEnglish(text: string): boolean {
  return !FOREIGN_LETTER.test(text);
}
