// One profile on several devices, from the browser: this page lists my devices (and revokes
// them), shows a one-time link for another device (a QR code its camera opens, and a code to
// type), and takes a profile from another device (`/#link=TOKEN`, or the typed code); a browser
// holding one asks first whether to keep or replace it.
import { call, json, session, explain, say, refocus } from './api.js';
import { t, language, addMessages } from './i18n.js';
import { pending } from './scan-queue.js';

await addMessages('device');

const $ = (id) => document.getElementById(id);
const LINK = 'constellation.deviceLink';
const REPLACED = 'constellation.replacedBy';

/** What this browser is called in a device list. */
function deviceName() {
  const agent = navigator.userAgent;
  const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Mac OS/.test(agent) ? 'Mac'
    : /Windows/.test(agent) ? 'Windows' : /Linux/.test(agent) ? 'Linux' : t('devices.aComputer');
  return t('devices.browserOn', { system });
}

/** Keeps a `#link=` token for this tab and takes it out of the address bar; the token or null. */
export function takeDeviceLink() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('link');
  if (!token) return null;
  sessionStorage.setItem(LINK, token);
  history.replaceState(null, '', location.pathname + location.search);
  return token;
}

/**
 * Uses a link from another device (its token kept by `takeDeviceLink`, or `code` typed): this
 * browser keeps the new key. Then runs `next`; a failure is said in `status`.
 */
export async function joinByLink(status, next, code) {
  const token = code ? null : sessionStorage.getItem(LINK);
  sessionStorage.removeItem(LINK);
  if (!token && !code) return false;
  try {
    say(status, t('devices.using'));
    session.save(await json('/device-links/redeem', {
      method: 'POST', auth: null, body: { ...(token ? { token } : { code }), deviceName: deviceName() },
    }));
    say(status, t('devices.welcomeBack', { name: session.profile.displayName }), 'success');
    await next();
  } catch (error) {
    say(status, explain(error), 'error');
  }
  return true;
}

async function loadDevices(status) {
  try {
    const { devices } = await json('/me/devices');
    $('devices').replaceChildren(...devices.map((device) => {
      const item = document.createElement('li');
      const name = document.createElement('strong');
      name.textContent = device.name || t('devices.unnamed');
      item.append(name, device.current ? ` ${t('devices.thisOne')}` : '');
      if (device.lastUsedAt) item.append(` — ${t('devices.lastUsed', { date: new Date(device.lastUsedAt).toLocaleDateString(language) })}`);
      if (!device.current) {
        const revoke = Object.assign(document.createElement('button'), { type: 'button', className: 'inline', textContent: t('devices.revoke') });
        revoke.setAttribute('aria-label', t('devices.revokeNamed', { device: name.textContent }));
        revoke.addEventListener('click', async () => {
          try {
            await call(`/me/devices/${device.id}`, { method: 'DELETE' });
            say(status, t('devices.revoked', { device: name.textContent }), 'success');
            await loadDevices(status);
            refocus(status);
          } catch (error) {
            say(status, explain(error), 'error');
          }
        });
        item.append(' ', revoke);
      }
      return item;
    }));
  } catch (error) {
    say(status, explain(error), 'error');
  }
}

/** Shows a one-time link for another device and follows it until it is used or expires. */
async function showLink(status) {
  const figure = $('device-link');
  try {
    const link = await json('/me/device-links?qr=svg', { method: 'POST' });
    const url = URL.createObjectURL(new Blob([link.qrSVG], { type: 'image/svg+xml' }));
    $('device-link-qr').src = url;
    const time = new Date(link.expiresAt).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
    $('device-link-caption').textContent = t('devices.linkCaption', { code: link.code, time });
    figure.hidden = false;
    const follow = async () => {
      const state = await json(`/me/device-links/${link.id}`).catch(() => null);
      if (state && state.state === 'pending') return setTimeout(follow, 2_000);
      figure.hidden = true;
      URL.revokeObjectURL(url);
      if (state && state.state === 'used') say(status, t('devices.nowUses', { device: state.device?.name || t('devices.yourOther') }), 'success');
      else if (state) say(status, t('devices.expired'));
      loadDevices(status);
    };
    setTimeout(follow, 2_000);
  } catch (error) {
    say(status, explain(error), 'error');
  }
}

/** Keep this browser's profile, or replace it with a `#link=`'s (warned when nothing else could
 * bring it back). The old key is forgotten, not revoked, which would void a recovery code it made. */
export async function offerToReplace(status) {
  const name = session.profile?.displayName ?? '';
  $('replace-question').textContent = t('devices.replaceQuestion', { name });
  $('replace-keep').textContent = t('devices.keep', { name });
  $('replace-profile').hidden = false;
  $('replace-keep').focus();
  // Scans kept offline are this profile's: they go first.
  $('replace-yes').disabled = pending().length > 0;
  if (pending().length) say(status, t('devices.scansFirst', { name }), 'error');
  try {
    const list = await json('/me/devices');
    const alone = list.devices.length <= 1 && !list.recoveryCodeAt;
    $('replace-warning').textContent = alone ? t('devices.replaceAlone', { name }) : '';
    for (const id of ['replace-warning', 'replace-recovery', 'replace-link']) $(id).hidden = !alone;
  } catch { /* asked again when it is replaced */ }
  const close = () => { $('replace-profile').hidden = true; };
  $('replace-keep').onclick = () => {
    sessionStorage.removeItem(LINK);
    close();
    say(status, t('devices.kept', { name }), 'success');
  };
  $('replace-recovery').onclick = async () => {
    try {
      const made = await json('/me/recovery-code', { method: 'POST' });
      const shown = $('replace-recovery-code');
      shown.querySelector('code').textContent = made.recoveryCode;
      shown.hidden = false;
      $('replace-warning').textContent = t('devices.recoveryMade', { name });
      $('replace-recovery').hidden = true;
      $('replace-yes').focus();
    } catch (error) {
      say(status, explain(error), 'error');
    }
  };
  $('replace-link').onclick = () => {
    $('replace-link').hidden = true;
    $('replace-yes').focus();
    showLink(status);
  };
  $('replace-yes').onclick = async () => {
    const token = sessionStorage.getItem(LINK);
    $('replace-yes').disabled = true;
    try {
      const registered = await json('/device-links/redeem', { method: 'POST', auth: null, body: { token, deviceName: deviceName() } });
      sessionStorage.removeItem(LINK);
      session.save(registered);
      sessionStorage.setItem(REPLACED, registered.profile.displayName);
      location.replace('/');
    } catch (error) {
      say(status, error?.code === 'device_link_expired' ? t('devices.linkRanOut') : explain(error), 'error');
      $('replace-yes').disabled = false;
    }
  };
}

/** Says, once, that this browser now uses the profile a replacement brought (the page reloaded for it). */
export function sayReplaced(status) {
  const name = sessionStorage.getItem(REPLACED);
  sessionStorage.removeItem(REPLACED);
  if (name) say(status, t('devices.welcomeBack', { name }), 'success');
}

/** The home page's "My devices" section. */
export function initDevices(status) {
  $('link-device').addEventListener('click', () => showLink(status));
  loadDevices(status);
}
