// `/events/{slug}/poster?paper=a4|letter`: the join poster an organizer prints or projects: the
// event's name, the QR code of its join link, the code in words and one line of instructions, in
// the page's language, laid out for the paper chosen (the print style sheet's named pages).
import { call, json, explain, say } from './api.js';
import { t, localize, addMessages } from './i18n.js';

await addMessages('organizer');

const $ = (id) => document.getElementById(id);
const slug = decodeURIComponent(location.pathname.split('/')[2] || '');
const paper = new URLSearchParams(location.search).get('paper') === 'letter' ? 'letter' : 'a4';

async function start() {
  localize();
  $('back').href = `/events/${encodeURIComponent(slug)}/organize`;
  $('print').addEventListener('click', () => window.print());
  try {
    const event = await json(`/events/${encodeURIComponent(slug)}`, { auth: null });
    const code = await json(`/events/${encodeURIComponent(slug)}/join-code`);
    // The QR code of the very code printed beside it: a rotation in between is refused (400), not printed.
    const qr = await call(`/events/${encodeURIComponent(slug)}/join-qr?code=${encodeURIComponent(code.joinCode)}`);
    const image = $('poster-qr');
    image.src = URL.createObjectURL(await qr.blob());
    image.alt = t('poster.qr', { event: event.name });
    await image.decode();
    document.title = t('poster.documentTitle', { event: event.name });
    $('poster-event').textContent = event.name;
    $('poster-code').textContent = code.joinCode;
    $('poster-instructions').textContent = t('poster.instructions', { host: new URL(code.link).host, slug: event.slug });
    $('poster-link').textContent = code.link;
    $('poster').classList.replace('a4', paper);
    $('poster').dataset.paper = paper;
    $('poster').hidden = false;
  } catch (error) {
    say($('status'), explain(error), 'error');
    $('print').hidden = true;
  }
}

start();
