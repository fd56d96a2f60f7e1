/**
 * The text of every stylesheet a document may carry inline (decision 058), by the URL the build
 * gave it: the shell's sheet and each screen's, compiled as the linked copies are.
 */
const urls = import.meta.glob<string>(['../styles/app.css', '../styles/screens/*.css'], { query: '?url', import: 'default', eager: true })
const texts = import.meta.glob<string>(['../styles/app.css', '../styles/screens/*.css'], {
  query: '?inline',
  import: 'default',
  eager: true,
})
const byUrl = new Map(Object.entries(urls).map(([file, url]) => [url, texts[file]]))

export const stylesheetText = (href: string) => byUrl.get(href)
