/**
 * What the notification settings, the push opt-in and the unsubscribe page say (issue 27), apart
 * from the other catalogues so a screen loads only the sentences it shows. The api's refusals are
 * worded where they arrive (upstream/notify.server.ts): the catalogue stays out of the screens' JavaScript.
 */
export const notifyMessages = {
  loadFailed: 'Failed to load your notification settings, please try again later',
  saved: 'Notification settings saved',
  switchedOn: (what: string) => `${what}: on`,
  switchedOff: (what: string) => `${what}: off`,
  lockedReason: 'Always sent: it keeps your account safe',
  amountsHelp: 'Off: a push says what happened, and the amount shows only once you open the app.',
  removed: 'Device removed: it gets no more push notifications',
  removeFailed: 'Failed to remove the device, please try again later',
  noDevices: 'No device gets push notifications yet.',
  neverUsed: 'No push sent yet',
  lastUsed: (when: string) => `Last push ${when}`,
  subscribed: (name: string) => `Push is on for ${name}`,
  subscribeFailed: 'Failed to turn on push, please try again later',
  // The opt-in (components/push-opt-in.tsx): what the browser can do decides which sentence shows.
  pushNeedsScript: 'Push needs JavaScript: turn it on in your browser’s settings, then come back here.',
  pushUnsupported: 'This browser cannot get push notifications. E-mail still tells you about your money.',
  pushUnsupportedIos: 'On iPhone, add Cardlane to your Home Screen first (Share, then Add to Home Screen) and turn on push from there.',
  pushDenied: 'Notifications are blocked for this site. Allow them in your browser’s site settings, then try again.',
  pushDismissed: 'Push stays off. You can turn it on here any time.',
  pushNotReachable:
    'This browser could not reach its push service, so push is not on. Try again later, or use another browser; e-mail still tells you.',
  pushOnHere: 'This device gets push notifications.',
  unsubscribeFailed: 'Failed to unsubscribe, please try again later',
  unsubscribeOneClickOnly: 'Use the button on this page to unsubscribe.',
}

/** "12 Nov" in the wallet's time zone: when a device last got a push. */
export function formatDay(at: number, timeZone: string): string {
  return dayFormat(timeZone).format(at)
}

// A formatter is costly to make: one per time zone, kept.
const dayFormats = new Map<string, Intl.DateTimeFormat>()
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let f = dayFormats.get(timeZone)
  if (!f) dayFormats.set(timeZone, (f = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short' })))
  return f
}
