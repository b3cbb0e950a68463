/**
 * Stop words per language, as the original's cores had them (Solr's lang/stopwords_<lang>.txt: the 33 English
 * words of Lucene's default set, the Snowball lists for Portuguese and Spanish). Autocomplete uses them the
 * way the original does (a completion is the last word, or stop words followed by one word), More Like This
 * leaves them out of the terms it looks for. A locale whose language has no list has no stop words.
 */

const ENGLISH =
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with';

const PORTUGUESE =
  'de a o que e do da em um para com não uma os no se na por mais as dos como mas ao ele das à seu sua ou quando muito nos já eu também só ' +
  'pelo pela até isso ela entre depois sem mesmo aos seus quem nas me esse eles você essa num nem suas meu às minha numa pelos elas qual nós ' +
  'lhe deles essas esses pelas este dele tu te vocês vos lhes meus minhas teu tua teus tuas nosso nossa nossos nossas dela delas esta estes ' +
  'estas aquele aquela aqueles aquelas isto aquilo estou está estamos estão estive esteve estivemos estiveram estava estávamos estavam ' +
  'estivera estivéramos esteja estejamos estejam estivesse estivéssemos estivessem estiver estivermos estiverem hei há havemos hão houve ' +
  'houvemos houveram houvera houvéramos haja hajamos hajam houvesse houvéssemos houvessem houver houvermos houverem houverei houverá ' +
  'houveremos houverão houveria houveríamos houveriam sou somos são era éramos eram fui foi fomos foram fora fôramos seja sejamos sejam ' +
  'fosse fôssemos fossem for formos forem serei será seremos serão seria seríamos seriam tenho tem temos tém tinha tínhamos tinham tive ' +
  'teve tivemos tiveram tivera tivéramos tenha tenhamos tenham tivesse tivéssemos tivessem tiver tivermos tiverem terei terá teremos ' +
  'terão teria teríamos teriam';

const SPANISH =
  'de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin ' +
  'sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos ' +
  'qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ' +
  'ti tu tus ellas nosotras vosotros vosotras os mío mía míos mías tuyo tuya tuyos tuyas suyo suya suyos suyas nuestro nuestra nuestros ' +
  'nuestras vuestro vuestra vuestros vuestras esos esas estoy estás está estamos estáis están es son fue era eran ser soy eres somos sois';

const LISTS: Record<string, ReadonlySet<string>> = {
  en: new Set(ENGLISH.split(' ')),
  pt: new Set(PORTUGUESE.split(' ')),
  es: new Set(SPANISH.split(' ')),
};

const NONE: ReadonlySet<string> = new Set();

/** The stop words of a locale's language (`en_US` → English), lower case. */
export function stopWordsOf(locale: string): ReadonlySet<string> {
  return LISTS[locale.slice(0, locale.indexOf('_') > 0 ? locale.indexOf('_') : undefined).toLowerCase()] ?? NONE;
}
