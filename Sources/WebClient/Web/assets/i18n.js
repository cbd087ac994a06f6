// The pages' words in the reader's language, from its folder of catalogs (locales/de/common.json, …),
// which the server's documents read too: a language is a folder and an entry in LANGUAGES (docs/cli-and-web.md).
// The language of a page load: `?lang=xx` (kept as the choice for the pages after it), else the one chosen with the page's switch (kept in
// localStorage), else the browser's first language with a catalog, else English. `?lang=qps` is a
// pseudo-locale made from English, every message as ⟦Áççéñţéd⟧: text left outside the catalogs
// stands out (LanguageTests looks for it).
const CHOICE = 'constellation.language';
const PSEUDO = 'qps';
const LANGUAGES = ['en', 'de'];
const ACCENTS = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', c: 'ç', n: 'ñ', t: 'ţ', y: 'ý', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', C: 'Ç', N: 'Ñ' };

function choose() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === PSEUDO) return PSEUDO;
  // A link's language is the reader's choice from then on: the pages it leads to keep it.
  if (LANGUAGES.includes(asked)) localStorage.setItem(CHOICE, asked);
  const wanted = [asked, localStorage.getItem(CHOICE), ...navigator.languages.map((tag) => tag.split('-')[0].toLowerCase())];
  return wanted.find((code) => LANGUAGES.includes(code)) || 'en';
}

/** English `text` in the pseudo-locale: accented and bracketed, its `{placeholders}` intact. */
function pseudo(text) {
  return `⟦${text.replace(/\{\w+\}|[a-zA-Z]/g, (part) => ACCENTS[part] ?? part)}⟧`;
}

/** English `catalog` in the pseudo-locale, message for message. */
function pseudoCatalog(catalog) {
  return Object.fromEntries(Object.entries(catalog).map(([key, message]) => [key, typeof message === 'string' ? pseudo(message)
    : Object.fromEntries(Object.entries(message).map(([form, text]) => [form, pseudo(text)]))]));
}

/** This page load's language: a catalog's ('en', 'de') or the pseudo-locale ('qps'). */
export const language = choose();

/** The catalog `part` (`common`, `organizer`, …) in this page's language (the pseudo-locale's made from English). */
async function load(part) {
  const url = new URL(`./locales/${language === PSEUDO ? 'en' : language}/${part}.json`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status}`);
  const catalog = await response.json();
  return language === PSEUDO ? pseudoCatalog(catalog) : catalog;
}
const messages = { ...(await load('common')) };

/** Adds the messages only some pages use (the catalog `part`: `organizer`, `live`, `device`),
 * before those pages `localize`. */
export async function addMessages(part) {
  Object.assign(messages, await load(part));
}
const plurals = new Intl.PluralRules(language);

/** Whether the catalogs have a message `key`. */
export function has(key) {
  return Object.hasOwn(messages, key);
}

/** `items` as this language writes a list of names ("Ada, Bob and Cleo"). */
export function list(items) {
  if (language !== PSEUDO) return new Intl.ListFormat(language, { type: 'conjunction' }).format(items);
  // Intl knows no pseudo-locale: English's words between the names, marked.
  return new Intl.ListFormat('en', { type: 'conjunction' }).formatToParts(items)
    .map((part) => (part.type === 'literal' ? pseudo(part.value) : part.value)).join('');
}

/** `n` as this language writes numbers (`options` as `Intl.NumberFormat`'s). */
export function number(n, options) {
  return n.toLocaleString(language, options);
}

/**
 * The message `key` in this page's language, its `{name}`s filled
 * from `params` (numbers written as the language writes them); a message with plural forms takes
 * the one `params.count` calls for.
 */
export function t(key, params = {}) {
  let message = messages[key] ?? key;
  if (typeof message === 'object') message = message[plurals.select(params.count)] ?? message.other;
  return message.replace(/\{(\w+)\}/g, (placeholder, name) => {
    const value = params[name];
    if (value === undefined) return placeholder;
    return typeof value === 'number' ? number(value) : String(value);
  });
}

/**
 * Puts the messages into `root`'s marked elements: `data-i18n="key"` their text,
 * `data-i18n-attr="placeholder:key,aria-label:key"` their attributes. For the whole document also
 * `<html lang>` and the switch of `LANGUAGES` in `<footer class="language">`, if the page has one.
 */
export function localize(root = document) {
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of element.dataset.i18nAttr.split(',')) {
      const [attribute, key] = pair.split(':').map((part) => part.trim());
      element.setAttribute(attribute, t(key));
    }
  }
  if (root !== document) return;
  document.documentElement.lang = language;
  const footer = document.querySelector('footer.language');
  if (!footer) return;
  const select = Object.assign(document.createElement('select'), { id: 'language' });
  for (const code of LANGUAGES) select.add(Object.assign(new Option(new Intl.DisplayNames(code, { type: 'language' }).of(code), code), { lang: code }));
  footer.replaceChildren(Object.assign(document.createElement('label'), { htmlFor: 'language', textContent: t('language.label') }), select);
  offer(select);
}

/** The switch shows this page's language; a choice is kept for every page, and this one reloaded in it. */
function offer(select) {
  select.value = language;
  select.addEventListener('change', () => {
    localStorage.setItem(CHOICE, select.value);
    const url = new URL(location.href);
    // This page load's `?lang=` would win over the choice just made.
    if (url.searchParams.has('lang')) {
      url.searchParams.delete('lang');
      history.replaceState(history.state, '', url);
    }
    location.reload();
  });
}
