/**
 * "Chrome on Android, added 12 Nov": a push subscription's name from the User-Agent the web
 * forwards. Families only, in the order that tells them apart (Edge and Opera say Chrome too).
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
]
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

export function deviceName(userAgent: string | undefined, now: number): string {
  const ua = userAgent ?? ''
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1]
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1]
  const d = new Date(now)
  const what = browser && system ? `${browser} on ${system}` : (browser ?? (system ? `A browser on ${system}` : 'A browser'))
  return `${what}, added ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`
}
