// Printed badges, from "My events" on the home page: whether the organizers print my badge (their
// sheet holds only those who said yes), "Print my badge" (the badge's SVG from the server, printed
// alone by the print style sheet), and for organizers the sheet of badges to download and print.

import { call, explain, say } from './api.js';
import { t, language } from './i18n.js';
import { download, today } from './download.js';
import { choiceBox } from './choice-box.js';

const $ = (id) => document.getElementById(id);
/** The language the server draws badges in: this page's (it writes every language the pages do, the pseudo-locale too). */
const drawn = () => language;

/** The badge controls of an event I belong to, as `GET /v1/me/events` lists it. */
export function badgeControls({ event, role, printsBadge }) {
  const controls = document.createElement('div');
  controls.className = 'badge-controls';
  const choice = choiceBox(event, Boolean(printsBadge), t('badge.organizersPrintIt'), {
    body: (checked) => ({ printBadge: checked }), chosen: (choices) => choices.printsBadge, said: ['badge.nowPrinted', 'badge.notPrinted'],
  });
  const print = Object.assign(document.createElement('button'), { type: 'button', textContent: t('badge.print') });
  print.dataset.event = event.slug;
  print.addEventListener('click', () => printBadge(event, print));
  controls.append(choice, print);
  if (role === 'organizer') controls.append(...sheetButtons(event, $('event-status')));
  return controls;
}

/** Fetches my badge for `event` and prints it alone (see `body.printing-badge` in style.css). */
async function printBadge(event, button) {
  button.disabled = true;
  try {
    const response = await call(`/me/badge?event=${encodeURIComponent(event.slug)}&format=svg&lang=${drawn()}`);
    const image = $('badge-image');
    if (image.src) URL.revokeObjectURL(image.src);
    image.src = URL.createObjectURL(await response.blob());
    image.alt = t('badge.alt', { event: event.name });
    await image.decode();
    say($('event-status'), t('badge.ready', { event: event.name }), 'success');
    document.body.classList.add('printing-badge');
    window.addEventListener('afterprint', () => document.body.classList.remove('printing-badge'), { once: true });
    window.print();
  } catch (error) {
    say($('event-status'), explain(error), 'error');
  } finally {
    button.disabled = false;
  }
}

/** The buttons that download `event`'s print sheet on A4 and on Letter paper, saying on `status` how many badges it holds. */
export function sheetButtons(event, status) {
  return ['a4', 'letter'].map((paper) => {
    const sheet = Object.assign(document.createElement('button'), { type: 'button', textContent: t(`badge.sheet.${paper}`) });
    sheet.dataset.paper = paper;
    sheet.addEventListener('click', () => downloadSheet(event, paper, sheet, status));
    return sheet;
  });
}

/** Downloads the organizers' print sheet of `event` on `paper`, as the HTML page to open and print. */
async function downloadSheet(event, paper, button, status) {
  button.disabled = true;
  try {
    const response = await call(`/events/${encodeURIComponent(event.slug)}/badges?paper=${paper}&lang=${drawn()}`);
    const count = Number(response.headers.get('Constellation-Badges') || 0);
    download(await response.blob(), `badges-${event.slug}-${paper}-${today()}.html`);
    say(status, t('badge.sheetReady', { count, event: event.name }), 'success');
  } catch (error) {
    say(status, explain(error), 'error');
  } finally {
    button.disabled = false;
  }
}
