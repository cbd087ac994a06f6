// My contact card on the home page (`GET`/`PUT /v1/me/card`): each entry for my connections or for
// nobody (the default), changed one tick at a time; and a connection's shared entries, shown as
// links a phone can act on (mail, call, open), and saved to the phone's contacts as a vCard.
import { call, explain, say, refocus } from './api.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);
let entries = [];
/** The ETag of the card shown: a change is made only to that card, never over a newer one. */
let etag = null;

async function load() {
  const response = await call('/me/card');
  etag = response.headers.get('ETag');
  entries = (await response.json()).entries;
}

/**
 * Sends the whole card (a change is one tick or one entry) if it is still the one shown, then
 * shows it as the server kept it; changed on another device meanwhile, the newer card is shown.
 * A card never read (its load failed) is read first, and the change asked again (it would replace it whole).
 */
async function save(next) {
  if (!etag) {
    try {
      await load();
      say($('card-status'), t('card.reread'), 'error');
    } catch (error) {
      say($('card-status'), explain(error), 'error');
    }
    render();
    return false;
  }
  try {
    const response = await call('/me/card', { method: 'PUT', body: { entries: next }, headers: { 'If-Match': etag } });
    etag = response.headers.get('ETag');
    entries = (await response.json()).entries;
    say($('card-status'), t('card.saved'), 'success');
    return true;
  } catch (error) {
    if (error.code === 'card_changed') {
      await load().catch(() => {});
      say($('card-status'), t('card.changed'), 'error');
    } else {
      say($('card-status'), explain(error), 'error');
    }
    return false;
  } finally {
    render();
  }
}

function render() {
  $('card-entries').replaceChildren(...entries.map((entry, index) => {
    const item = document.createElement('li');
    const what = document.createElement('strong');
    what.textContent = t(`card.kind.${entry.kind}`) + (entry.label ? ` (${entry.label})` : '');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: entry.audience === 'connections' });
    box.addEventListener('change', () => save(entries.map((kept, i) => (i === index
      ? { ...kept, audience: box.checked ? 'connections' : 'nobody' } : kept))));
    const choice = document.createElement('label');
    choice.className = 'choice';
    choice.append(box, ` ${t('card.share')}`);
    const remove = Object.assign(document.createElement('button'), { type: 'button', className: 'inline', textContent: t('card.remove') });
    remove.setAttribute('aria-label', t('card.removeNamed', { value: entry.value }));
    remove.addEventListener('click', () => save(entries.filter((_, i) => i !== index)).then(() => refocus($('card-status'))));
    item.append(what, `: ${entry.value} `, remove, choice);
    return item;
  }));
  if (!entries.length && etag) $('card-entries').replaceChildren(Object.assign(document.createElement('li'), { textContent: t('card.empty') }));
}

async function add(event) {
  event.preventDefault();
  const form = $('card-add');
  const entry = {
    kind: form.kind.value, value: form.value.value.trim(), label: form.label.value.trim() || undefined,
    audience: form.share.checked ? 'connections' : 'nobody',
  };
  if (await save([...entries, entry])) form.reset();
}

/** The home page's "My card" section. */
export async function initCard() {
  $('card-add').addEventListener('submit', add);
  // Back on the page (after using another device, say): the card as it is now.
  document.addEventListener('visibilitychange', () => { if (!document.hidden) load().then(render, () => {}); });
  try {
    await load();
  } catch (error) {
    say($('card-status'), explain(error), 'error');
  }
  render();
}

/** What `card` (a connection's shared entries) offers, as a list: addresses and numbers as links to write or call. */
export function sharedEntries(card) {
  const list = document.createElement('ul');
  list.className = 'card';
  for (const entry of card || []) {
    const item = document.createElement('li');
    // An address's `?`, `&` or `#` stay part of it, never a mail's added recipients or body.
    const href = entry.kind === 'email' ? `mailto:${entry.value.split('@').map(encodeURIComponent).join('@')}`
      : entry.kind === 'phone' ? `tel:${entry.value}`
      : entry.kind === 'link' && /^https?:\/\//i.test(entry.value) ? entry.value : null;
    const value = href ? Object.assign(document.createElement('a'), { href, textContent: entry.value, rel: 'noopener noreferrer' })
      : document.createTextNode(entry.value);
    item.append(`${t(`card.kind.${entry.kind}`)}${entry.label ? ` (${entry.label})` : ''}: `, value);
    list.append(item);
  }
  return list;
}

/**
 * Fetches the vCard of my connection with `peer` and offers it on `link` (an <a>) as NAME.vcf; a click
 * fetches it again, so that what they shared after the scan is in it too.
 */
export async function offerContact(link, peer) {
  keep(link, await (await call(vcardPath(peer))).blob());
  saveOnClick(link, peer);
  link.hidden = false;
}

/** A "Save NAME to my contacts" link for a connection in a list: its vCard is fetched when clicked. */
export function contactLink(peer) {
  const link = Object.assign(document.createElement('a'), { href: '#', className: 'save-contact' });
  saveOnClick(link, peer);
  return link;
}

const vcardPath = (peer) => `/me/connections?format=vcard&peer=${encodeURIComponent(peer.id)}`;

/** `blob` as what `link` downloads. */
function keep(link, blob) {
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(blob);
}

/**
 * `link` saves the vCard as it is when clicked (they may have shared more since); without network,
 * the one fetched before, if any.
 */
function saveOnClick(link, peer) {
  link.download = `${peer.displayName.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'contact'}.vcf`;
  link.textContent = t('card.saveContact', { name: peer.displayName });
  link.onclick = async (event) => {
    if (link.dataset.fresh) {
      delete link.dataset.fresh;
      return;
    }
    event.preventDefault();
    try {
      keep(link, await (await call(vcardPath(peer))).blob());
    } catch {
      if (!link.href.startsWith('blob:')) return; // no network and nothing fetched before
    }
    link.dataset.fresh = 'yes';
    link.click();
  };
}
