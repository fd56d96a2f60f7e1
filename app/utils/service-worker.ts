// Registers public/sw.js (decision 048) once the page has loaded, so it never competes with the
// first paint. The build's version in its address installs a fresh copy of the offline page with
// each deploy.
/** The worker's address; push's opt-in registers the same one, so the two never replace each other. */
export function workerUrl() {
  const version = (window as { __remixManifest?: { version?: string } }).__remixManifest?.version ?? ''
  return `/sw.js?v=${encodeURIComponent(version)}`
}

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return
  const register = () => {
    navigator.serviceWorker.register(workerUrl(), { scope: '/' }).catch(() => undefined)
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
