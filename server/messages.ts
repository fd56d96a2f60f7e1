/**
 * What the web process answers before Remix sees a request. The texts are the app's own
 * (app/utils/messages.ts accessMessages, tests/web/server.test.ts holds them equal): the process
 * does not import the app's modules, which live in the Remix build.
 */
export const serverMessages = {
  crossSite: 'This request came from another site and was refused.',
  tooLarge: 'That was more than this form can take. Please try again with less.',
  badRequest: 'This request could not be read.',
  tooSlow: 'This request took too long to arrive.',
  /** The console asked for on a host that is not its own (OPS_HOST): as if it were not there. */
  notFound: 'Not found.',
} as const
