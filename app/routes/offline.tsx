// The page the service worker (public/sw.js, decision 048) shows when a page cannot be fetched for
// lack of network. A resource route: plain HTML with the shell's stylesheet and no script, so it
// works from the worker's cache alone, and it is nobody's (the worker fetches it without cookies).
// The worker puts the balance this device last saw where the mark is.
import appStyles from '~/styles/app.css?url'
import { getPublicEnv } from '~/utils/env.server'
import { pageTitle } from '~/utils/routes'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

export function loader() {
  const brand = escapeHtml(getPublicEnv().brandName)
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#0f766e">
<title>${escapeHtml(pageTitle('Offline', getPublicEnv().brandName))}</title>
<link rel="stylesheet" href="${appStyles}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body>
<div class="cl-screen">
<header class="cl-topbar"><div class="cl-topbar__inner"><div class="cl-topbar__start"></div><h1 class="cl-topbar__title">You are offline</h1><div class="cl-topbar__end"></div></div></header>
<main id="main" class="cl-screen__main">
<div class="cl-page-hero">
<h2 class="cl-title">No connection</h2>
<p class="cl-lead">${brand} could not reach the internet. Your money and orders are safe; this page will work again once you are back online.</p>
</div>
<!--last-seen-->
<div class="cl-actionbar"><a class="cl-button cl-button--primary cl-button--block" href=""><span class="cl-button__content">Try again</span></a></div>
</main>
</div>
</body>
</html>
`
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
  })
}
