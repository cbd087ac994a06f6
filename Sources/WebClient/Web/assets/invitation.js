// `/invitation#code=XXXXX-XXXXX`: an invitation to organize an event, as its link opens it (or
// its code typed here). It says which event and who invited before anything else; a browser
// without a profile makes one with a name; then Accept (the organizer's page opens) or Decline.
// The link works once: whoever answers first uses it up, and the page says why one that no longer
// works does not (answered, withdrawn, expired, its organizer gone).
import { json, call, session, explain, say, sayWaits, registerFrom, ApiError } from './api.js';
import { t, language, localize, addMessages } from './i18n.js';

await addMessages('organizer');

const $ = (id) => document.getElementById(id);
const status = $('status');
const KEPT = 'constellation.invitation';
/** Refusals that end this invitation: the code form is offered again for another. */
const ENDED = new Set(['invitation_unknown', 'invitation_used', 'invitation_lapsed', 'invitation_withdrawn', 'invitation_expired']);
let code = null;
let invitation = null;

/** The code the link carries (`#code=`), kept for this tab and taken out of the address bar. */
function takeCode() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('code');
  if (given) {
    sessionStorage.setItem(KEPT, given);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return given || sessionStorage.getItem(KEPT);
}

function showCodeForm(error) {
  $('invitation').hidden = true;
  $('code-form').hidden = false;
  $('code-error').textContent = error ? explain(error) : '';
  $('code-error').hidden = !error;
  if (error) $('code').setAttribute('aria-invalid', 'true');
  else $('code').removeAttribute('aria-invalid');
  $('code').focus();
}

/** Looks the code up and says what it invites to; a code that no longer works is said next to the field. */
async function look(given) {
  try {
    invitation = await json('/invitation-links/look', { method: 'POST', auth: null, body: { code: given } });
  } catch (error) {
    const ended = error instanceof ApiError && (ENDED.has(error.code) || error.code === 'invalid_invitation_code');
    // A code that may still work (no network, a busy server) stays, in the form, to try again.
    if (ended) sessionStorage.removeItem(KEPT);
    else $('code').value = given;
    showCodeForm(ended ? error : null);
    if (!ended) say(status, explain(error), 'error');
    return;
  }
  code = given;
  $('code-form').hidden = true;
  $('invitation').hidden = false;
  $('invitation-text').textContent = t('invitation.text', { name: invitation.invitedByName, event: invitation.eventName });
  $('invitation-until').textContent = t('invitation.until', {
    until: new Date(invitation.expiresAt).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }),
  });
  offerAnswer();
}

function offerAnswer() {
  const known = Boolean(session.key);
  $('name-form').hidden = known;
  $('answer').hidden = !known;
  (known ? $('accept') : $('name')).focus();
}

async function answer(accept) {
  for (const id of ['accept', 'decline']) $(id).disabled = true;
  try {
    await call(`/invitation-links/${accept ? 'accept' : 'decline'}`, { method: 'POST', body: { code } });
    sessionStorage.removeItem(KEPT);
    $('invitation').hidden = true;
    const link = $('next-link');
    if (accept) {
      say(status, t('invitation.accepted', { event: invitation.eventName }), 'success');
      link.href = `/events/${encodeURIComponent(invitation.eventSlug)}/organize`;
      link.textContent = t('invitation.toOrganize', { event: invitation.eventName });
    } else {
      say(status, t('invitation.declined', { event: invitation.eventName }), 'success');
      link.href = '/';
      link.textContent = t('organize.toHome');
    }
    $('next').hidden = false;
    link.focus();
  } catch (error) {
    say(status, error instanceof ApiError && error.code === 'blocked_from_organizing' ? t('invitation.blocked') : explain(error), 'error');
    if (error instanceof ApiError && ENDED.has(error.code)) $('answer').hidden = true;
  } finally {
    for (const id of ['accept', 'decline']) $(id).disabled = false;
  }
}

localize();
sayWaits(status);
$('code-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const given = $('code').value.trim();
  if (!given) return showCodeForm({ code: 'invalid_invitation_code' });
  look(given);
});
$('name-form').addEventListener('submit', (event) => {
  event.preventDefault();
  registerFrom($('name-form'), status, (registered) => {
    say(status, t('invitation.welcome', { name: registered.profile.displayName }), 'success');
    offerAnswer();
  });
});
$('accept').addEventListener('click', () => answer(true));
$('decline').addEventListener('click', () => answer(false));
window.addEventListener('hashchange', () => { const given = takeCode(); if (given) look(given); });
const given = takeCode();
if (given) look(given);
else showCodeForm();
