// Registers public/sw.js (decision 048) once the page has loaded, so it never competes with the
// first paint. The build's version in its address installs a fresh copy of the offline page with
// each deploy.
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return
  const register = () => {
    const version = (window as { __remixManifest?: { version?: string } }).__remixManifest?.version ?? ''
    navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`, { scope: '/' }).catch(() => undefined)
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
